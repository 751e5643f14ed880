package dev.schemarag.core.retrieval;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The engine's loaded schema indexes, one per database: built on first use, kept until the schema
 * of that database changes ({@link #invalidate}), then rebuilt on the next question.
 */
public final class SchemaIndexCache {

  private final Function<String, SchemaIndex> loader;
  private final Map<String, SchemaIndex> loaded = new ConcurrentHashMap<>();
  private final AtomicLong loads = new AtomicLong();

  /** @param loader builds a database's index from the store (catalog, chunks) */
  public SchemaIndexCache(Function<String, SchemaIndex> loader) {
    this.loader = loader;
  }

  public SchemaIndex get(String databaseId) {
    return loaded.computeIfAbsent(databaseId, id -> {
      loads.incrementAndGet();
      return loader.apply(id);
    });
  }

  /** The schema of {@code databaseId} changed: the next question loads it again. */
  public void invalidate(String databaseId) {
    loaded.remove(databaseId);
  }

  /** How many times an index was built (diagnostics). */
  public long loads() {
    return loads.get();
  }
}
