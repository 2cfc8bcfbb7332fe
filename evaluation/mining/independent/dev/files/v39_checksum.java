package com.edi.transport;

import java.io.IOException;
import java.io.InputStream;

public class ChecksumCalculator {

	private static final int WEIGHTS[] = {7, 3, 1};

	public int checksum(String reference) {
		int sum = 0;
		char chars[] = reference.toCharArray();
		for (int index = 0; index < chars.length; index++) {
			sum += Character.getNumericValue(chars[index]) * WEIGHTS[index % WEIGHTS.length];
		}
		return sum % 10;
	}

	public long crc(InputStream in) throws IOException {
		byte buffer[] = new byte[8192];
		java.util.zip.CRC32 crc = new java.util.zip.CRC32();
		for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
			crc.update(buffer, 0, read);
		}
		return crc.getValue();
	}
}
