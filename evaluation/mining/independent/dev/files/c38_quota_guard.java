package com.gateway.quota;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

public class QuotaGuard {

    private final Map<String, AtomicInteger> used = new ConcurrentHashMap<>();
    private final int limitPerMinute;

    public QuotaGuard(int limitPerMinute) {
        this.limitPerMinute = limitPerMinute;
    }

    public boolean tryAcquire(String apiKey) {
        AtomicInteger counter = used.computeIfAbsent(apiKey, key -> new AtomicInteger());
        if (counter.incrementAndGet() > limitPerMinute) {
            counter.decrementAndGet();
            return false;
        }
        return true;
    }

    public void resetAll() {
        for (AtomicInteger counter : used.values()) {
            counter.set(0);
        }
    }
}
