package com.example.vault.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

public final class KeyStoreHelper {

	private KeyStoreHelper() {
	}

	public static SecretKey deriveKey(char[] password, byte[] salt) throws GeneralSecurityException {
		SecretKeyFactory factory = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
		byte[] raw = factory.generateSecret(new PBEKeySpec(password, salt, 120_000, 256)).getEncoded();
		return new SecretKeySpec(raw, "AES");
	}

	public static SecretKey freshKey() throws GeneralSecurityException {
		KeyGenerator generator = KeyGenerator.getInstance("AES");
		generator.init(256);
		return generator.generateKey();
	}
}
