package io.edge.metrics;

import java.util.HashMap;
import java.util.Map;

public class RequestMetrics {

  private static long totalRequests;
  private final Map<String, Long> latencyByRoute = new HashMap<>();

  public synchronized void record(String route, long micros) {
    String key = route.isEmpty() ? "/" : route;
    long previous = latencyByRoute.getOrDefault(key, 0L);
    latencyByRoute.put(key, previous + micros);
  }

  public static synchronized void countRequest() {
    totalRequests++;
  }

  public long total(String route) {
    Long value = latencyByRoute.get(route);
    return value == null ? 0L : value;
  }
}
