package dev.schemarag.service;

import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the configuration every so often and hands a changed list of source databases to the
 * service, which adds and removes sources without a restart. A configuration that no longer loads
 * is logged and the service keeps its sources: a typo in the file must not stop a running stack.
 * Only the sources are applied this way; other keys take effect at the next start.
 */
public final class SourcesWatcher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SourcesWatcher.class);

  /** Applies a changed list of sources; throwing leaves the list to be applied at the next check. */
  public interface Listener {
    void sourcesChanged(List<SourceDatabase> sources) throws Exception;
  }

  private final Supplier<SchemaragConfig> loader;
  private final Function<SchemaragConfig, List<SourceDatabase>> resolve;
  private final Listener listener;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sources-watcher");
    t.setDaemon(true);
    return t;
  });
  private volatile List<SourceDatabase> applied;

  /**
   * @param loader reads the configuration again (file and environment, as at start)
   * @param resolve the sources of a configuration
   * @param current the sources the service runs with now
   */
  public SourcesWatcher(Supplier<SchemaragConfig> loader, Function<SchemaragConfig, List<SourceDatabase>> resolve,
                        List<SourceDatabase> current, Listener listener) {
    this.loader = loader;
    this.resolve = resolve;
    this.listener = listener;
    this.applied = List.copyOf(current);
  }

  /** Checks every {@code interval}; a zero interval checks never. */
  public SourcesWatcher start(Duration interval) {
    if (!interval.isZero()) {
      timer.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** One check: re-reads, and applies the sources when they changed. */
  public synchronized void check() {
    List<SourceDatabase> now;
    try {
      now = resolve.apply(loader.get());
    } catch (RuntimeException e) {
      LOG.warn("the configuration no longer loads, the sources stay as they are: {}", e.getMessage());
      return;
    }
    if (now.equals(applied)) {
      return;
    }
    try {
      listener.sourcesChanged(now);
      applied = List.copyOf(now);
      LOG.info("sources now {}", now.stream().map(SourceDatabase::id).toList());
    } catch (Exception e) {
      LOG.warn("could not apply the sources {}: {}; tried again at the next check", now.stream().map(SourceDatabase::id).toList(),
          e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
