package dev.schemarag.ingest;

import java.util.Collection;
import java.util.TreeSet;

/**
 * Which audit events were delivered to the broker. An event id comes from a sequence drawn when the
 * DDL statement runs, not when its transaction commits, and Debezium streams rows in commit order:
 * when two sessions run DDL at once, a lower id can arrive after a higher one. A high-water mark
 * would skip that event for good, so a delivered event is recognised by its id. The newest
 * {@code capacity} ids are kept; an id below all of those forgotten counts as delivered (a replay
 * after a restart starts at Debezium's last flushed offset, well inside the window).
 */
final class DeliveredEvents {

  private final int capacity;
  private final TreeSet<Long> ids = new TreeSet<>();
  private long forgottenUpTo;

  /**
   * @param delivered the ids known delivered (read back from the DDL topic)
   * @param olderDelivered true when events older than all of {@code delivered} were delivered too
   *     (only the topic's tail was read): ids below the lowest count as delivered
   */
  DeliveredEvents(int capacity, Collection<Long> delivered, boolean olderDelivered) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
    ids.addAll(delivered);
    forgottenUpTo = olderDelivered && !ids.isEmpty() ? ids.first() - 1 : -1;
    trim();
  }

  synchronized boolean contains(long eventId) {
    return eventId <= forgottenUpTo || ids.contains(eventId);
  }

  synchronized void add(long eventId) {
    ids.add(eventId);
    trim();
  }

  /** The highest id delivered, or -1. */
  synchronized long highest() {
    return ids.isEmpty() ? forgottenUpTo : ids.last();
  }

  private void trim() {
    while (ids.size() > capacity) {
      forgottenUpTo = Math.max(forgottenUpTo, ids.pollFirst());
    }
  }
}
