package payments.vault;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;

public class CardTokenVault {

    private final SecretKey key;

    public CardTokenVault(SecretKey key) {
        this.key = key;
    }

    public String seal(String cardNumber) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("DES/CBC/PKCS5Padding");
        cipher.init(Cipher.ENCRYPT_MODE, key);
        byte[] sealed = cipher.doFinal(cardNumber.getBytes(StandardCharsets.US_ASCII));
        byte[] iv = cipher.getIV();
        return Base64.getEncoder().encodeToString(iv) + ":" + Base64.getEncoder().encodeToString(sealed);
    }
}
