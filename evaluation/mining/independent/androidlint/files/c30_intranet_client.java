package com.example.intranet;

import java.io.IOException;
import java.net.URL;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSession;

public class IntranetClient {

    private final URL base;
    private final String expectedHost;

    public IntranetClient(URL base, String expectedHost) {
        this.base = base;
        this.expectedHost = expectedHost;
    }

    public HttpsURLConnection open(String path) throws IOException {
        HttpsURLConnection connection = (HttpsURLConnection) new URL(base, path).openConnection();
        HostnameVerifier platform = HttpsURLConnection.getDefaultHostnameVerifier();
        connection.setHostnameVerifier(new HostnameVerifier() {
            @Override
            public boolean verify(String hostname, SSLSession session) {
                return expectedHost.equals(hostname) && platform.verify(expectedHost, session);
            }
        });
        return connection;
    }
}
