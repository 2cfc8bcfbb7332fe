package client.backoff;

import java.util.Random;

public class RetryJitter {

    private final Random random = new Random();
    private final int baseMillis;

    public RetryJitter(int baseMillis) {
        this.baseMillis = baseMillis;
    }

    public int delayFor(int attempt) {
        int noise = random.nextInt();
        int delay = baseMillis * attempt + noise * 3;
        return Math.abs(delay);
    }

    public static void main(String[] args) {
        RetryJitter jitter = new RetryJitter(100);
        for (int attempt = 1; attempt <= 3; attempt++) {
            System.out.println(jitter.delayFor(attempt));
        }
    }
}
