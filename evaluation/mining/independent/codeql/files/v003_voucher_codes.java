package shop.promo.codes;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;

public class VoucherCodeGenerator {

    private static final char[] ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".toCharArray();

    private final SecureRandom random = new SecureRandom();
    private final int length;

    public VoucherCodeGenerator(int length) {
        this.length = length;
        random.setSeed(System.currentTimeMillis());
    }

    public String next() {
        StringBuilder code = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            code.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return code.toString();
    }

    public Set<String> batch(int count) {
        Set<String> codes = new HashSet<>();
        while (codes.size() < count) {
            codes.add(next());
        }
        return codes;
    }
}
