package dev.schemarag.indexer;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.PgChunkStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the store's HNSW indexes, one per database and searched kind, once the indexer has gone
 * quiet with chunks stored: after a database's initial snapshot (a new store's, or a source added
 * later). PostgreSQL builds a graph over stored rows several times cheaper than it inserts the
 * same rows one by one, and the row-by-row inserts took the core the embedding model needs. Until
 * the build, that database's dense search scans its rows exactly (slower, not worse). Once every
 * graph exists, checked again only after the indexer wrote; a restart costs three queries.
 */
final class VectorIndexBuilder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(VectorIndexBuilder.class);
  private static final Pattern MEMORY = Pattern.compile("[1-9][0-9]*(kB|MB|GB)");
  /** After a failed build (the store down), the next attempt waits this long. */
  private static final Duration RETRY = Duration.ofSeconds(30);

  /** When to build and with how much memory. */
  record Settings(Duration quiet, String memory) {
    Settings {
      if (quiet.isNegative()) {
        throw new IllegalArgumentException(ConfigKeys.INDEXER_VECTOR_INDEX_QUIET_MS.name() + " must be 0 or more, not " + quiet.toMillis());
      }
      if (!MEMORY.matcher(memory).matches()) {
        throw new IllegalArgumentException(ConfigKeys.INDEXER_VECTOR_INDEX_MEMORY.name()
            + " must be a size in kB, MB or GB such as 512MB, not '" + memory + "'");
      }
    }

    static Settings from(SchemaragConfig config) {
      return new Settings(Duration.ofMillis(config.getInt(ConfigKeys.INDEXER_VECTOR_INDEX_QUIET_MS)),
          config.get(ConfigKeys.INDEXER_VECTOR_INDEX_MEMORY).trim());
    }
  }

  private final PgChunkStore store;
  private final Supplier<Duration> idle;
  private final Settings settings;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "vector-index-builder");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean done;
  private final java.util.function.LongSupplier clock;
  private long notBeforeNanos;
  /** When the last check that reached the store began; once complete, only a later write asks for another. */
  private long checkedAtNanos = Long.MIN_VALUE;

  /** @param idle how long the indexer has handed no batch to the store writer */
  VectorIndexBuilder(PgChunkStore store, Supplier<Duration> idle, Settings settings) {
    this(store, idle, settings, System::nanoTime);
  }

  /** @param clock {@link System#nanoTime} but in tests, where time is the test's to move */
  VectorIndexBuilder(PgChunkStore store, Supplier<Duration> idle, Settings settings, java.util.function.LongSupplier clock) {
    this.store = store;
    this.idle = idle;
    this.settings = settings;
    this.clock = clock;
    this.notBeforeNanos = clock.getAsLong();
  }

  /** Checks every second. */
  void start() {
    timer.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
  }

  /** Chunks are stored and the last check found (or built) every index they need. */
  boolean done() {
    return done;
  }

  /** One check: builds the missing indexes when the indexer is quiet and wrote since the last check. */
  void check() {
    long now = clock.getAsLong();
    Duration quietFor = idle.get();
    if (now < notBeforeNanos || quietFor.compareTo(settings.quiet()) < 0) {
      return;
    }
    if (done && now - quietFor.toNanos() < checkedAtNanos) {
      return; // complete, and nothing written since (while another indexer builds, this one looks again)
    }
    try {
      checkedAtNanos = now;
      if (!store.holdsSearchedChunks()) {
        done = false;
        return;
      }
      List<PgChunkStore.VectorIndex> missing = store.missingVectorIndexes();
      if (!missing.isEmpty()) {
        long t0 = System.nanoTime();
        LOG.info("building the HNSW indexes {} over the stored chunks", missing.stream().map(PgChunkStore.VectorIndex::name).toList());
        List<PgChunkStore.VectorIndex> built = store.buildVectorIndexes(settings.memory());
        LOG.info("built {} HNSW indexes in {} ms", built.size(), (System.nanoTime() - t0) / 1_000_000);
        missing = store.missingVectorIndexes();
      }
      done = missing.isEmpty();
    } catch (SQLException | RuntimeException e) {
      LOG.warn("cannot build the HNSW indexes yet (retrying in {} s): {}", RETRY.toSeconds(), e.getMessage());
      notBeforeNanos = clock.getAsLong() + RETRY.toNanos();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
