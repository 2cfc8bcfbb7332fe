package ops.backup.crypto;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

public class BackupEncryptor {

    private static final int NONCE_BYTES = 12;

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    public BackupEncryptor(SecretKey key) {
        this.key = key;
    }

    public byte[] encrypt(byte[] archive) throws GeneralSecurityException {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
        byte[] body = cipher.doFinal(archive);
        byte[] out = new byte[NONCE_BYTES + body.length];
        System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
        System.arraycopy(body, 0, out, NONCE_BYTES, body.length);
        return out;
    }
}
