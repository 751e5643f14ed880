package dev.schemarag.core.retrieval;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's loaded schema indexes, one per database: loaded in full on first use, then kept up
 * to date table by table. Changed tables ({@link #tablesChanged}) are read again on their own
 * (catalog entry, foreign keys, chunks) and applied as a new version of the index
 * ({@link SchemaIndex#withTables}), which replaces the old one in one step once it is built. A
 * question never waits for an update: it answers from the version that is current when it asks, as
 * Lucene's {@code SearcherManager} serves searches while it refreshes, so the first question after a
 * change costs what any question costs and the update's time counts in freshness instead.
 * {@link #invalidate} drops an index altogether: the next question loads it in full. A change
 * signalled while an index is being loaded is not lost: that index serves the question that asked
 * for it but is not kept. With a {@link Warmer}, a new version answers the database's last question
 * once, on the updating thread, before it replaces the current one (as Solr warms a new searcher
 * with recent queries): what a version computes on its first search, and the JIT's first run of the
 * code paths an update opens, are then not paid by the next asker.
 */
public final class SchemaIndexCache {

  private static final Logger LOG = LoggerFactory.getLogger(SchemaIndexCache.class);

  /** Reads tables of a database as they are now, for an update of its loaded index. */
  @FunctionalInterface
  public interface TableReader {
    /**
     * Each of {@code tables} (model names) as it is now; a table that no longer exists comes back without definition or chunks.
     *
     * @param withVectors whether the loaded index holds vectors, so the changes must carry their texts' vectors
     */
    List<SchemaIndex.TableChange> read(String databaseId, Collection<String> tables, boolean withVectors) throws Exception;
  }

  /** Asks a new version of an index a question, before it replaces the current one; the answer is thrown away. */
  @FunctionalInterface
  public interface Warmer {
    void warm(SchemaIndex next, String question);
  }

  private final Function<String, SchemaIndex> loader;
  private final TableReader tables;
  private final Warmer warmer;
  /** Per database, the last question asked of it: what warms its next version. */
  private final Map<String, String> lastAsked = new ConcurrentHashMap<>();
  private final Map<String, SchemaIndex> loaded = new ConcurrentHashMap<>();
  /** Per database: counts changes; also the lock under which its index is replaced. */
  private final Map<String, AtomicLong> changes = new ConcurrentHashMap<>();
  private final Map<String, Object> loading = new ConcurrentHashMap<>();
  private final AtomicLong loads = new AtomicLong();
  private final AtomicLong tableUpdates = new AtomicLong();
  private final AtomicLong warmed = new AtomicLong();

  /** A cache without table updates: every change reloads the database's index in full. */
  public SchemaIndexCache(Function<String, SchemaIndex> loader) {
    this(loader, null);
  }

  /**
   * @param loader builds a database's index from the store (catalog, chunks)
   * @param tables reads changed tables for an update in place; null to reload in full on every change
   */
  public SchemaIndexCache(Function<String, SchemaIndex> loader, TableReader tables) {
    this(loader, tables, null);
  }

  /**
   * @param warmer asks each new version the database's last question before it is served; null for none
   */
  public SchemaIndexCache(Function<String, SchemaIndex> loader, TableReader tables, Warmer warmer) {
    this.loader = loader;
    this.tables = tables;
    this.warmer = warmer;
  }

  /** A question was asked of {@code databaseId}: the next version of its index is warmed with it. */
  public void asked(String databaseId, String question) {
    if (warmer != null && question != null && !question.isBlank()) {
      lastAsked.put(databaseId, question);
    }
  }

  /** The current version of the database's index, loaded in full if it is not loaded. */
  public SchemaIndex get(String databaseId) {
    SchemaIndex cached = loaded.get(databaseId);
    if (cached != null) {
      return cached;
    }
    // One load of a database at a time: a question that comes while the start-up warm-up (or another
    // question) loads it waits for that load instead of building a second copy beside it.
    synchronized (loading.computeIfAbsent(databaseId, k -> new Object())) {
      cached = loaded.get(databaseId);
      if (cached != null) {
        return cached;
      }
      AtomicLong changed = lock(databaseId);
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
  }

  /**
   * Tables of {@code databaseId} changed: a loaded index gets a new version for them, built in the
   * calling thread (the follower of index events) while questions go on with the version before;
   * an index being loaded is not kept. If the tables cannot be read, the index is dropped and the
   * next question loads it in full: an index that missed a change would stay wrong until a restart.
   */
  public void tablesChanged(String databaseId, Collection<String> names) {
    if (tables == null) {
      invalidate(databaseId);
      return;
    }
    AtomicLong changed = lock(databaseId);
    synchronized (changed) {
      changed.incrementAndGet();
      SchemaIndex current = loaded.get(databaseId);
      if (current == null || names.isEmpty()) {
        return;
      }
      List<String> read = List.copyOf(new java.util.LinkedHashSet<>(names));
      try {
        SchemaIndex next = current.withTables(tables.read(databaseId, read, current.vectors().isPresent()));
        if (current.vectors().isPresent() && next.vectors().isEmpty()) {
          // The read missed a new text's vector: the next question loads the index, vectors and all, in one snapshot.
          LOG.warn("the update of {} for tables {} lacked vectors; the index is loaded again in full", databaseId, read);
          loaded.remove(databaseId);
          return;
        }
        warm(databaseId, next);
        loaded.put(databaseId, next);
        tableUpdates.addAndGet(read.size());
      } catch (Exception e) {
        LOG.warn("could not update the index of {} for tables {}; it is loaded again in full: {}", databaseId, read, e.getMessage(), e);
        loaded.remove(databaseId);
      }
    }
  }

  private void warm(String databaseId, SchemaIndex next) {
    String question = lastAsked.get(databaseId);
    if (warmer == null || question == null) {
      return;
    }
    try {
      warmer.warm(next, question);
      warmed.incrementAndGet();
    } catch (RuntimeException e) {
      // Warming only saves the next asker time: a version it fails on is served all the same.
      LOG.warn("warming the new index version of {} failed; it is served unwarmed: {}", databaseId, e.toString());
    }
  }

  /** The schema of {@code databaseId} changed in ways unknown: the next question loads it again. */
  public void invalidate(String databaseId) {
    AtomicLong changed = lock(databaseId);
    synchronized (changed) {
      changed.incrementAndGet();
      loaded.remove(databaseId);
    }
  }

  /** Every database's schema may have changed. */
  public void invalidateAll() {
    changes.keySet().forEach(this::invalidate);
  }

  private AtomicLong lock(String databaseId) {
    return changes.computeIfAbsent(databaseId, id -> new AtomicLong());
  }

  /** How many times an index was loaded in full (diagnostics). */
  public long loads() {
    return loads.get();
  }

  /** How many new versions were handed to the warmer, and came back, before they were served (diagnostics). */
  public long warmed() {
    return warmed.get();
  }

  /** How many table changes were applied to loaded indexes in place (diagnostics). */
  public long tableUpdates() {
    return tableUpdates.get();
  }
}
