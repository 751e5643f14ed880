package dev.schemarag.core.retrieval;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The engine's loaded schema indexes, one per database: built on first use, kept until the schema
 * of that database changes ({@link #invalidate}), then rebuilt on the next question. A change
 * signalled while an index is being built is not lost: that index serves the question that asked
 * for it but is not kept.
 */
public final class SchemaIndexCache {

  private final Function<String, SchemaIndex> loader;
  private final Map<String, SchemaIndex> loaded = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> changes = new ConcurrentHashMap<>();
  private final AtomicLong loads = new AtomicLong();

  /** @param loader builds a database's index from the store (catalog, chunks) */
  public SchemaIndexCache(Function<String, SchemaIndex> loader) {
    this.loader = loader;
  }

  public SchemaIndex get(String databaseId) {
    SchemaIndex cached = loaded.get(databaseId);
    if (cached != null) {
      return cached;
    }
    AtomicLong changed = changes.computeIfAbsent(databaseId, id -> new AtomicLong());
    long before = changed.get();
    loads.incrementAndGet();
    SchemaIndex built = loader.apply(databaseId);
    synchronized (changed) {
      if (changed.get() == before) {
        loaded.put(databaseId, built);
      }
    }
    return built;
  }

  /** The schema of {@code databaseId} changed: the next question loads it again. */
  public void invalidate(String databaseId) {
    AtomicLong changed = changes.computeIfAbsent(databaseId, id -> new AtomicLong());
    synchronized (changed) {
      changed.incrementAndGet();
      loaded.remove(databaseId);
    }
  }

  /** Every database's schema may have changed. */
  public void invalidateAll() {
    changes.keySet().forEach(this::invalidate);
  }

  /** How many times an index was built (diagnostics). */
  public long loads() {
    return loads.get();
  }
}
