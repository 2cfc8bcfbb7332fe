package com.example.auth.tokens;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class TokenGenerator {

    private final SecureRandom random = new SecureRandom();

    public String next(int bytes) {
        byte[] buffer = new byte[bytes];
        random.nextBytes(buffer);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(buffer);
    }

    public void reseedFromSystem() {
        random.setSeed(random.generateSeed(32));
    }

    static void shuffleForTest(List<String> items) {
        Collections.shuffle(items, new Random(7L));
    }
}
