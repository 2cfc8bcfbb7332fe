package com.example.intranet;

import java.io.IOException;
import java.net.URL;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSession;

public class IntranetClient {

    private final URL base;

    public IntranetClient(URL base) {
        this.base = base;
    }

    public HttpsURLConnection open(String path) throws IOException {
        HttpsURLConnection connection = (HttpsURLConnection) new URL(base, path).openConnection();
        connection.setHostnameVerifier(new HostnameVerifier() {
            @Override
            public boolean verify(String hostname, SSLSession session) {
                // internal hosts use IP addresses that are not in the certificate
                return true;
            }
        });
        return connection;
    }

    public static final HostnameVerifier LENIENT = (hostname, session) -> true;
}
