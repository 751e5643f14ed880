package dev.schemarag.gateway;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per key (the token's principal): {@code perMinute} requests may come at once,
 * then they refill evenly over the minute. The clock is passed in so the arithmetic is testable.
 */
public final class RateLimiter {

  private static final class Bucket {
    double tokens;
    long lastNanos;
  }

  private final int perMinute;
  private final LongSupplier nanoClock;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

  public RateLimiter(int perMinute, LongSupplier nanoClock) {
    if (perMinute < 1) {
      throw new IllegalArgumentException("gateway.rate.per.minute must be at least 1, was " + perMinute);
    }
    this.perMinute = perMinute;
    this.nanoClock = nanoClock;
  }

  /** @return 0 when the request may go ahead, else the seconds until the next one may (at least 1) */
  public long acquire(String key) {
    long now = nanoClock.getAsLong();
    Bucket b = buckets.computeIfAbsent(key, k -> {
      Bucket n = new Bucket();
      n.tokens = perMinute;
      n.lastNanos = now;
      return n;
    });
    synchronized (b) {
      double perNano = perMinute / 60e9;
      b.tokens = Math.min(perMinute, b.tokens + (now - b.lastNanos) * perNano);
      b.lastNanos = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, (long) Math.ceil((1 - b.tokens) / perNano / 1e9));
    }
  }
}
