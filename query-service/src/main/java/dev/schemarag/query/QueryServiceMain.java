package dev.schemarag.query;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.service.ServiceLogging;
import dev.schemarag.service.ServiceSettings;
import dev.schemarag.service.SourcesWatcher;
import dev.schemarag.service.ops.ServiceMetrics;
import dev.schemarag.service.ops.ServiceOps;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs the query service until SIGTERM: configuration from file and environment; db.url and
 * kafka.bootstrap.servers are required here (the CLI's embedded default supplies local ones).
 * Serves /health/live, /health/ready and /metrics on query.http.port from the start; ready once
 * every worker has its partitions.
 */
public final class QueryServiceMain {
  private QueryServiceMain() {}

  static final String NAME = "query-service";

  public static void main(String[] args) throws Exception {
    ServiceLogging.configure();
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    String url = ServiceSettings.requiredDbUrl(config);
    String bootstrap = ServiceSettings.requiredBootstrap(config);
    TopicCatalog topics = ServiceSettings.topics(config);
    ConnectionSource admin = ConnectionSource.of(url, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
    AtomicReference<QueryService> service = new AtomicReference<>();
    ServiceOps ops = serveHealth(config, bootstrap, admin, ServiceMetrics.create(NAME), service::get);
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      Optional.ofNullable(service.get()).ifPresent(QueryService::close);
      ops.close();
      done.countDown();
    }, "query-service-stop"));
    try {
      service.set(QueryServices.create(config, admin, url, topics, bootstrap));
      service.get().start(config.getInt(ConfigKeys.QUERY_WORKERS), ops.metrics().registry());
    } catch (Exception | Error e) {
      // The endpoint's thread would keep a failed process alive, answering "live".
      ops.close();
      throw e;
    }
    // Sources added to or removed from the configuration are answered for, or no longer, without a restart.
    SourcesWatcher watcher = new SourcesWatcher(() -> SchemaragConfig.fromEnvironment(Map.of()), c -> QueryServices.sourcesOf(c, url),
        QueryServices.sourcesOf(config, url), service.get()::applySources)
        .start(Duration.ofMillis(config.getInt(ConfigKeys.SOURCES_RELOAD_MS)));
    Runtime.getRuntime().addShutdownHook(new Thread(watcher::close, "sources-watcher-stop"));
    done.await();
  }

  /**
   * The query service's health and metrics endpoint on {@code query.http.port}: ready when the
   * broker and the database answer and every worker has its partitions.
   *
   * @param service the service once created; null while it is being built (not ready)
   */
  public static ServiceOps serveHealth(SchemaragConfig config, String bootstrap, ConnectionSource db, ServiceMetrics metrics,
                                       Supplier<QueryService> service) {
    return ServiceOps.start(NAME, config, ConfigKeys.QUERY_HTTP_PORT, bootstrap, db, metrics, Map.of("partitions", () -> {
      QueryService s = service.get();
      return s == null ? Optional.of("the service is starting (models, read-only role, index)") : s.notReady();
    }));
  }
}
