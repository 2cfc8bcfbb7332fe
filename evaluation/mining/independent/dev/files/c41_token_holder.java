package com.platform.auth;

import java.time.Instant;

public class TokenHolder {

    private static final String TOKEN_ISSUER = "auth.platform";
    private static final String CACHE_KEY_PREFIX = "_token_";

    private String accessToken;
    private Instant expiresAt;

    public void update(String token, Instant expiresAt) {
        this.accessToken = token;
        this.expiresAt = expiresAt;
    }

    public boolean valid(Instant now) {
        return accessToken != null && now.isBefore(expiresAt);
    }

    public String cacheKey(String userId) {
        return CACHE_KEY_PREFIX + userId + "$";
    }

    public String issuer() {
        return TOKEN_ISSUER;
    }
}
