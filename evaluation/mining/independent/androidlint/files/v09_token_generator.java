package com.example.auth.tokens;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Base64;

public class TokenGenerator {

    private static final long DEBUG_SEED = 42L;

    private final SecureRandom random = new SecureRandom();

    public TokenGenerator(boolean reproducible) {
        if (reproducible) {
            random.setSeed(DEBUG_SEED);
        } else {
            random.setSeed(System.currentTimeMillis());
        }
    }

    public String next(int bytes) {
        byte[] buffer = new byte[bytes];
        random.nextBytes(buffer);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer);
    }

    public static SecureRandom forSession(long sessionStart) {
        return new SecureRandom(ByteBuffer.allocate(Long.BYTES).putLong(sessionStart).array());
    }
}
