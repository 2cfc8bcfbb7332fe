package com.tollgate.keys;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

public final class ApiKeyIssuer {

    private final SecureRandom random;

    public ApiKeyIssuer() throws NoSuchAlgorithmException {
        this.random = SecureRandom.getInstanceStrong();
    }

    public String issue(String tenant) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return tenant + "_" + body;
    }

    public static void main(String[] args) throws NoSuchAlgorithmException {
        ApiKeyIssuer issuer = new ApiKeyIssuer();
        for (String tenant : args) {
            System.out.println(tenant + " -> " + issuer.issue(tenant));
        }
    }
}
