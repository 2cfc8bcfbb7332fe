package iot.trust;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.PKIXParameters;
import java.security.cert.PKIXRevocationChecker;
import java.util.EnumSet;

public class DeviceCertValidator {

    private final KeyStore anchors;

    public DeviceCertValidator(KeyStore anchors) {
        this.anchors = anchors;
    }

    public void validate(CertPath path) throws GeneralSecurityException {
        CertPathValidator validator = CertPathValidator.getInstance("PKIX");
        PKIXRevocationChecker checker = (PKIXRevocationChecker) validator.getRevocationChecker();
        checker.setOptions(EnumSet.of(PKIXRevocationChecker.Option.PREFER_CRLS));
        PKIXParameters parameters = new PKIXParameters(anchors);
        parameters.setRevocationEnabled(true);
        parameters.addCertPathChecker(checker);
        validator.validate(path, parameters);
    }
}
