package dev.schemarag.indexer;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PooledConnections;
import dev.schemarag.service.ServiceLogging;
import dev.schemarag.service.ServiceSettings;
import dev.schemarag.service.ops.ServiceMetrics;
import dev.schemarag.service.ops.ServiceOps;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs the indexer until SIGTERM. Serves /health/live, /health/ready and /metrics on
 * indexer.http.port from the start; ready once the streams run with their tasks assigned.
 */
public final class IndexerServiceMain {
  private IndexerServiceMain() {}

  static final String NAME = "indexer-service";

  /** The stream thread (embedding cache) and its store writer; a little headroom for a replaced thread. */
  static final int POOL_SIZE = 3;

  public static void main(String[] args) throws Exception {
    ServiceLogging.configure();
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    String bootstrap = ServiceSettings.requiredBootstrap(config);
    PooledConnections db = PooledConnections.of(ServiceSettings.requiredDbUrl(config), config.get(ConfigKeys.DB_USER),
        config.get(ConfigKeys.DB_PASSWORD), POOL_SIZE, "indexer");
    AtomicReference<IndexerService> service = new AtomicReference<>();
    ServiceOps ops = serveHealth(config, bootstrap, db, ServiceMetrics.create(NAME), service::get);
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      Optional.ofNullable(service.get()).ifPresent(IndexerService::close);
      ops.close();
      db.close();
      done.countDown();
    }, "indexer-stop"));
    try {
      service.set(IndexerService.create(config, db, bootstrap, ops.metrics().registry()));
      service.get().start(Duration.ofMinutes(2));
    } catch (Exception | Error e) {
      // The endpoint's thread would keep a failed process alive, answering "live".
      ops.close();
      throw e;
    }
    done.await();
  }

  /**
   * The indexer's health and metrics endpoint on {@code indexer.http.port}: ready when the broker
   * and the index database answer and the streams run with their tasks assigned.
   *
   * @param service the indexer once created; null while the model loads (not ready)
   */
  public static ServiceOps serveHealth(SchemaragConfig config, String bootstrap, ConnectionSource db, ServiceMetrics metrics,
                                       Supplier<IndexerService> service) {
    return ServiceOps.start(NAME, config, ConfigKeys.INDEXER_HTTP_PORT, bootstrap, db, metrics, Map.of("partitions", () -> {
      IndexerService s = service.get();
      return s == null ? Optional.of("the indexer is starting (embedding model, index schema)") : s.notReady();
    }));
  }
}
