package io.edge.limits;

import java.util.concurrent.TimeUnit;

/**
 * Token bucket limiter.
 */
public class RateLimiter {

  /** Tokens added per second. */
  private final double rate;
  private double tokens;
  private long lastRefill = System.nanoTime();

  /* ---- construction ---- */

  /**
   * Creates a limiter that starts full.
   */
  public RateLimiter(double rate) {
    this.rate = rate;
    this.tokens = rate;
  }

  /** Describes the limiter for logs. */
  @Override
  public String toString() {
    return "RateLimiter[" + rate + "/s]";
  }

  /**
   * Takes one token if there is one.
   */
  public synchronized boolean tryAcquire() {
    // refill according to elapsed time
    long now = System.nanoTime();
    tokens = Math.min(rate, tokens + rate * (now - lastRefill) / TimeUnit.SECONDS.toNanos(1));
    lastRefill = now;
    if (tokens < 1) {
      return false;
    }
    tokens -= 1;
    return true;
  }
}
