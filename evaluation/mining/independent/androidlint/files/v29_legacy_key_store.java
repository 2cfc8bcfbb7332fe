package com.example.vault.crypto;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;

public final class LegacyKeyStore {

	private static final String LEGACY_PROVIDER = "Crypto";

	private LegacyKeyStore() {
	}

	public static SecretKey deriveKey(byte[] seed) throws GeneralSecurityException {
		SecureRandom random = SecureRandom.getInstance("SHA1PRNG", LEGACY_PROVIDER);
		random.setSeed(seed);
		KeyGenerator generator = KeyGenerator.getInstance("AES");
		generator.init(256, random);
		return generator.generateKey();
	}

	public static SecretKey freshKey() throws GeneralSecurityException {
		KeyGenerator generator = KeyGenerator.getInstance("AES", "Crypto");
		generator.init(256);
		return generator.generateKey();
	}
}
