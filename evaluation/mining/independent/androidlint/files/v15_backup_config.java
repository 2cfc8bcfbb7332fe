package com.example.backup;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;

public class BackupConfig {

    private static final String MIRROR_URL = "ftp://backup:Zq7!rT2x@files.example-backup.net:2121/nightly";
    private static final String STATUS_URL = "https://svc-reporter:5f2c9a1e@status.example-backup.net/api";

    private final int timeoutMillis;

    public BackupConfig(int timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    public InputStream openMirror() throws IOException {
        URLConnection connection = new URL(MIRROR_URL).openConnection();
        connection.setConnectTimeout(timeoutMillis);
        return connection.getInputStream();
    }

    public String statusEndpoint() {
        return STATUS_URL + "/v1/ping";
    }
}
