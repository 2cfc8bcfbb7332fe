package b2b.trust;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.X509Certificate;
import java.util.List;

public class PartnerCertValidator {

    private final KeyStore trustAnchors;

    public PartnerCertValidator(KeyStore trustAnchors) {
        this.trustAnchors = trustAnchors;
    }

    public void validate(List<X509Certificate> chain) throws GeneralSecurityException {
        CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(chain);
        PKIXParameters parameters = new PKIXParameters(trustAnchors);
        parameters.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(path, parameters);
    }
}
