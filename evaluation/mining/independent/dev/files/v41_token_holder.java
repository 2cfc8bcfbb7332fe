package com.platform.auth;

import java.time.Instant;

public class TokenHolder {

    private static final String $ISSUER = "auth.platform";

    private String _accessToken;
    private Instant expiresAt_;

    public void update(String token_, Instant expiresAt) {
        this._accessToken = token_;
        this.expiresAt_ = expiresAt;
    }

    public boolean valid(Instant now) {
        return _accessToken != null && now.isBefore(expiresAt_);
    }

    public String authorizationHeader() {
        return "Bearer " + _accessToken;
    }

    public String issuer() {
        return $ISSUER;
    }
}
