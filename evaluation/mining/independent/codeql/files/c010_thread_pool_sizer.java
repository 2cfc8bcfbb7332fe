package service.runtime;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

public final class ThreadPoolSizer {

    private static final int MAX_PER_CORE = 64;

    private ThreadPoolSizer() {
    }

    public static ExecutorService create() {
        String raw = System.getenv("WORKERS_PER_CORE");
        int perCore = raw == null ? 2 : Integer.parseInt(raw.trim());
        if (perCore < 1 || perCore > MAX_PER_CORE) {
            throw new IllegalArgumentException("WORKERS_PER_CORE must be 1.." + MAX_PER_CORE);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        int threads = perCore * cores;
        return Executors.newFixedThreadPool(threads);
    }

    public static void main(String[] args) {
        create().shutdown();
    }
}
