package io.netkit.retry;

import java.time.Duration;

public class RetryingClient {

    private final Transport transport;

    public RetryingClient(Transport transport) {
        this.transport = transport;
    }

    public String get(String path) {
        return withRetry(path, /* retries= */ 3, /* backoff= */ Duration.ofMillis(200), /* idempotent= */ true);
    }

    public String post(String path) {
        return withRetry(path, /* maxAttempts= */ 1, /* delay= */ Duration.ZERO, /* readOnly= */ false);
    }

    private String withRetry(String path, int maxAttempts, Duration delay, boolean idempotent) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                return transport.send(path, idempotent);
            } catch (RuntimeException e) {
                last = e;
                sleep(delay.multipliedBy(attempt));
            }
        }
        throw last;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
