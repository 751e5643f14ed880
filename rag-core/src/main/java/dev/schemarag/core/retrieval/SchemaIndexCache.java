package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's loaded schema indexes, one per database: loaded in full on first use, then kept up
 * to date table by table. A changed table ({@link #tableChanged}) is read again on its own (catalog
 * entry, foreign keys, chunks) and applied as a new version of the index ({@link SchemaIndex#withTables}),
 * by whoever comes first: the follower of index events ({@link #refresh}) or the next question
 * ({@link #get}), which therefore never answers from an index older than the changes signalled
 * before it. {@link #invalidate} drops an index altogether: the next question loads it in full. A
 * change signalled while an index is being loaded is not lost: that index serves the question that
 * asked for it but is not kept.
 */
public final class SchemaIndexCache {

  private static final Logger LOG = LoggerFactory.getLogger(SchemaIndexCache.class);

  /** Reads tables of a database as they are now, for an update of its loaded index. */
  @FunctionalInterface
  public interface TableReader {
    /** Each of {@code tables} (model names) as it is now; a table that no longer exists comes back without definition or chunks. */
    List<SchemaIndex.TableChange> read(String databaseId, Collection<String> tables) throws Exception;
  }

  private final Function<String, SchemaIndex> loader;
  private final TableReader tables;
  private final Map<String, SchemaIndex> loaded = new ConcurrentHashMap<>();
  /** Per database: counts changes; also the lock under which its index is replaced. */
  private final Map<String, AtomicLong> changes = new ConcurrentHashMap<>();
  /** Per database, the tables changed since its index was last brought up to date. */
  private final Map<String, Set<String>> pending = new ConcurrentHashMap<>();
  private final AtomicLong loads = new AtomicLong();
  private final AtomicLong tableUpdates = new AtomicLong();

  /** A cache without table updates: every change reloads the database's index in full. */
  public SchemaIndexCache(Function<String, SchemaIndex> loader) {
    this(loader, null);
  }

  /**
   * @param loader builds a database's index from the store (catalog, chunks)
   * @param tables reads changed tables for an update in place; null to reload in full on every change
   */
  public SchemaIndexCache(Function<String, SchemaIndex> loader, TableReader tables) {
    this.loader = loader;
    this.tables = tables;
  }

  public SchemaIndex get(String databaseId) {
    SchemaIndex cached = loaded.get(databaseId);
    if (cached != null) {
      Set<String> waiting = pending.get(databaseId);
      return waiting == null || waiting.isEmpty() ? cached : refreshed(databaseId);
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

  /**
   * One table of {@code databaseId} changed: a loaded index is updated for it at the next
   * {@link #refresh} or question; an index being loaded is not kept.
   */
  public void tableChanged(String databaseId, String table) {
    if (tables == null) {
      invalidate(databaseId);
      return;
    }
    AtomicLong changed = lock(databaseId);
    synchronized (changed) {
      changed.incrementAndGet();
      if (loaded.containsKey(databaseId)) {
        pending.computeIfAbsent(databaseId, id -> ConcurrentHashMap.newKeySet()).add(table);
      }
    }
  }

  /** Applies the changes signalled for {@code databaseId} to its loaded index, if any. */
  public void refresh(String databaseId) {
    if (loaded.containsKey(databaseId)) {
      refreshed(databaseId);
    }
  }

  private SchemaIndex refreshed(String databaseId) {
    AtomicLong changed = lock(databaseId);
    synchronized (changed) {
      SchemaIndex current = loaded.get(databaseId);
      Set<String> waiting = pending.get(databaseId);
      if (current != null && (waiting == null || waiting.isEmpty())) {
        return current;
      }
      if (current != null) {
        // Taken off the pending set only once applied: a question meanwhile waits for this version rather than take the last.
        List<String> names = new ArrayList<>(waiting);
        try {
          SchemaIndex next = current.withTables(tables.read(databaseId, names));
          loaded.put(databaseId, next);
          waiting.removeAll(names);
          tableUpdates.addAndGet(names.size());
          return next;
        } catch (Exception e) {
          // An index that missed a change would stay wrong until the next restart: load it again instead.
          LOG.warn("could not update the index of {} for tables {}; it is loaded again in full: {}", databaseId, names, e.getMessage(), e);
          loaded.remove(databaseId);
          waiting.clear();
        }
      }
    }
    return get(databaseId);
  }

  /** The schema of {@code databaseId} changed in ways unknown: the next question loads it again. */
  public void invalidate(String databaseId) {
    AtomicLong changed = lock(databaseId);
    synchronized (changed) {
      changed.incrementAndGet();
      loaded.remove(databaseId);
      Set<String> waiting = pending.get(databaseId);
      if (waiting != null) {
        waiting.clear();
      }
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

  /** How many table changes were applied to loaded indexes in place (diagnostics). */
  public long tableUpdates() {
    return tableUpdates.get();
  }
}
