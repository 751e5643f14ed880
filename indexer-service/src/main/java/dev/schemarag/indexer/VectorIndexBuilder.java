package dev.schemarag.indexer;

import dev.schemarag.core.chunk.ChunkKind;
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
 * Builds the store's HNSW indexes once the indexer has gone quiet with chunks stored: on a new
 * store, after the initial snapshot. PostgreSQL builds a graph over stored rows several times
 * cheaper than it inserts the same rows one by one, and the row-by-row inserts took the core the
 * embedding model needs. Until the build, dense search scans the rows exactly (slower, not worse).
 * A store that has its indexes (a restart) costs one catalog query.
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
  private long notBeforeNanos = System.nanoTime();

  /** @param idle how long the indexer has handed no batch to the store writer */
  VectorIndexBuilder(PgChunkStore store, Supplier<Duration> idle, Settings settings) {
    this.store = store;
    this.idle = idle;
    this.settings = settings;
  }

  /** Checks every second until the indexes exist. */
  void start() {
    timer.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
  }

  /** The indexes exist (checked, or built by this builder). */
  boolean done() {
    return done;
  }

  /** One check: builds the missing indexes when the indexer is quiet and chunks are stored. */
  void check() {
    if (done || System.nanoTime() < notBeforeNanos || idle.get().compareTo(settings.quiet()) < 0) {
      return;
    }
    try {
      List<ChunkKind> missing = store.missingVectorIndexes();
      if (missing.isEmpty()) {
        done = true;
        return;
      }
      if (!store.holdsSearchedChunks()) {
        return;
      }
      long t0 = System.nanoTime();
      LOG.info("building the HNSW indexes of {} over the stored chunks", missing);
      List<ChunkKind> built = store.buildVectorIndexes(settings.memory());
      LOG.info("built the HNSW indexes of {} in {} ms", built, (System.nanoTime() - t0) / 1_000_000);
      done = store.missingVectorIndexes().isEmpty();
    } catch (SQLException | RuntimeException e) {
      LOG.warn("cannot build the HNSW indexes yet (retrying in {} s): {}", RETRY.toSeconds(), e.getMessage());
      notBeforeNanos = System.nanoTime() + RETRY.toNanos();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
