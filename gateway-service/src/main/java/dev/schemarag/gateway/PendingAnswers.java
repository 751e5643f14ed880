package dev.schemarag.gateway;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The correlation map: query_id -> the future its answer or failure completes, fed by the one
 * consumer of the results and failures topics. Completed outcomes stay in a bounded map of recent
 * answers (oldest evicted first), so a client whose wait timed out can fetch the answer later.
 * A registration with no answer is forgotten after {@code pendingTtlMs}.
 */
public final class PendingAnswers {

  /** Where a query stands as far as this gateway knows. */
  public sealed interface Status {
    record Done(Outcome outcome) implements Status {}
    record Pending() implements Status {}
    record Unknown() implements Status {}
  }

  private record Waiting(CompletableFuture<Outcome> future, long sinceMs) {}

  private final ConcurrentHashMap<String, Waiting> waiting = new ConcurrentHashMap<>();
  private final Map<String, Outcome> recent;
  private final long pendingTtlMs;
  private final LongSupplier clockMs;

  public PendingAnswers(int recentCapacity, long pendingTtlMs, LongSupplier clockMs) {
    if (recentCapacity < 1) {
      throw new IllegalArgumentException("gateway.recent.answers must be at least 1, was " + recentCapacity);
    }
    this.pendingTtlMs = pendingTtlMs;
    this.clockMs = clockMs;
    this.recent = new LinkedHashMap<>(16, 0.75f, false) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Outcome> eldest) {
        return size() > recentCapacity;
      }
    };
  }

  /** Registers a query before its request is published, so an answer arriving at once is not missed. */
  public CompletableFuture<Outcome> register(String queryId) {
    long now = clockMs.getAsLong();
    waiting.values().removeIf(w -> now - w.sinceMs() > pendingTtlMs && w.future().cancel(false));
    return waiting.computeIfAbsent(queryId, id -> new Waiting(new CompletableFuture<>(), now)).future();
  }

  /** An answer or failure arrived: completes its waiter (if any) and keeps it as recent. */
  public void complete(Outcome outcome) {
    synchronized (recent) {
      recent.put(outcome.queryId(), outcome);
    }
    Waiting w = waiting.remove(outcome.queryId());
    if (w != null) {
      w.future().complete(outcome);
    }
  }

  /** A request that could not be published: nobody waits for it. */
  public void forget(String queryId) {
    Waiting w = waiting.remove(queryId);
    if (w != null) {
      w.future().cancel(false);
    }
  }

  public Status status(String queryId) {
    Optional<Outcome> done;
    synchronized (recent) {
      done = Optional.ofNullable(recent.get(queryId));
    }
    if (done.isPresent()) {
      return new Status.Done(done.get());
    }
    return waiting.containsKey(queryId) ? new Status.Pending() : new Status.Unknown();
  }

  public int waitingCount() {
    return waiting.size();
  }
}
