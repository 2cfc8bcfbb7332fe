package com.example.backup;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

public class BackupConfig {

    private static final String MIRROR_URL = "https://files.example-backup.net/nightly";
    private static final String SUPPORT_EMAIL = "mailto:backup@example-backup.net";

    private final CredentialStore credentials;

    public BackupConfig(CredentialStore credentials) {
        this.credentials = credentials;
    }

    public InputStream openMirror() throws IOException {
        URLConnection connection = new URL(MIRROR_URL).openConnection();
        String pair = credentials.user() + ":" + credentials.password();
        String token = Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        connection.setRequestProperty("Authorization", "Basic " + token);
        return connection.getInputStream();
    }

    public String supportLink() {
        return SUPPORT_EMAIL;
    }
}
