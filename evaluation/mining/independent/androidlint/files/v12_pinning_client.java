package com.example.net;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

public final class StagingHttpClient {

    private StagingHttpClient() {
    }

    public static void relaxForStaging() throws GeneralSecurityException {
        X509TrustManager acceptAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                // staging certificates are self-signed
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {acceptAll}, null);
        HttpsURLConnection.setDefaultSSLSocketFactory(context.getSocketFactory());
    }
}
