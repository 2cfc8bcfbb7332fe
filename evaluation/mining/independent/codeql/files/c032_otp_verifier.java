package auth.otp;

public class OtpVerifier {

    private final CodeSource source;
    private final int maxTries;

    public OtpVerifier(CodeSource source, int maxTries) {
        this.source = source;
        this.maxTries = maxTries;
    }

    public boolean verify(String expected) {
        int tries = 0;
        while (tries < maxTries) {
            tries++;
            if (expected.equals(source.nextEntry())) {
                return true;
            }
        }
        return false;
    }

    interface CodeSource {
        String nextEntry();
    }
}
