package dev.schemarag.ingest;

import java.time.Duration;

/**
 * When a stopped DDL capture starts again: after {@code first}, doubling with each failure in a
 * row up to {@code max}. A capture that streamed longer than {@code max} before it failed starts
 * the count over, so an outage long past does not slow the next restart.
 */
final class CaptureRestarts {
  private final Duration first;
  private final Duration max;
  private int inARow;
  private long total;

  CaptureRestarts(Duration first, Duration max) {
    if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("restart delays need 0 < first <= max, got " + first + " and " + max);
    }
    this.first = first;
    this.max = max;
  }

  /** A capture started at {@code startedNanos} failed at {@code failedNanos}: the wait before the next start. */
  synchronized Duration afterFailure(long startedNanos, long failedNanos) {
    if (failedNanos - startedNanos > max.toNanos()) {
      inARow = 0;
    }
    inARow++;
    total++;
    Duration d = first;
    for (int i = 1; i < inARow && d.compareTo(max) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(max) > 0 ? max : d;
  }

  /** Failures counted since this ingest started (each one a restart, done or due). */
  synchronized long total() {
    return total;
  }
}
