package perf.loadtest;

import java.util.Random;

public class LoadTestPacer {

    private static final int MAX_SPREAD_MS = 250;

    private final Random random;
    private final int intervalMs;

    public LoadTestPacer(long seed, int intervalMs) {
        this.random = new Random(seed);
        this.intervalMs = intervalMs;
    }

    public int nextPause() {
        int spread = random.nextInt(MAX_SPREAD_MS);
        return intervalMs + spread * 2;
    }

    public static void main(String[] args) {
        LoadTestPacer pacer = new LoadTestPacer(42L, 1000);
        System.out.println(pacer.nextPause());
    }
}
