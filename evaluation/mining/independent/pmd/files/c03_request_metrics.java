package io.edge.metrics;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

public class RequestMetrics {

  private static final AtomicLong TOTAL_REQUESTS = new AtomicLong();
  private final Lock lock = new ReentrantLock();
  private final Map<String, Long> latencyByRoute = new HashMap<>();

  public void record(String route, long micros) {
    String key = route.isEmpty() ? "/" : route;
    lock.lock();
    try {
      latencyByRoute.merge(key, micros, Long::sum);
    } finally {
      lock.unlock();
    }
  }

  public static void countRequest() {
    TOTAL_REQUESTS.incrementAndGet();
  }
}
