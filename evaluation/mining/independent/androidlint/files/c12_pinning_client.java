package com.example.net;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

public final class PinningTrustManager implements X509TrustManager {

    private final X509TrustManager platform;
    private final byte[] pinnedEncoded;

    public PinningTrustManager(byte[] pinnedEncoded) throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init((KeyStore) null);
        this.platform = (X509TrustManager) factory.getTrustManagers()[0];
        this.pinnedEncoded = pinnedEncoded.clone();
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        platform.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        platform.checkServerTrusted(chain, authType);
        if (!Arrays.equals(chain[0].getEncoded(), pinnedEncoded)) {
            throw new CertificateException("server certificate does not match the pin");
        }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return platform.getAcceptedIssuers();
    }
}
