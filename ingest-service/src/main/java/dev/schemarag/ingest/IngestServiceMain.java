package dev.schemarag.ingest;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.service.ServiceLogging;
import dev.schemarag.service.ServiceSettings;
import dev.schemarag.service.SourcesWatcher;
import dev.schemarag.service.ops.Readiness;
import dev.schemarag.service.ops.ServiceMetrics;
import dev.schemarag.service.ops.ServiceOps;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the ingest service until SIGTERM; db.url and kafka.bootstrap.servers are required. Serves
 * /health/live, /health/ready and /metrics on ingest.http.port from the start; ready once capture
 * streams and the first snapshot is out.
 */
public final class IngestServiceMain {
  private IngestServiceMain() {}

  static final String NAME = "ingest-service";

  public static void main(String[] args) throws Exception {
    ServiceLogging.configure();
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    List<SourceDatabase> sources = SourceDatabases.of(config);
    if (config.get(ConfigKeys.SOURCES).isBlank()) {
      ServiceSettings.requiredDbUrl(config);
    }
    String bootstrap = ServiceSettings.requiredBootstrap(config);
    IngestSources service = new IngestSources(sources, config, bootstrap, ServiceSettings.topics(config));
    SourceDatabase first = sources.get(0);
    ServiceOps ops = serveHealth(config, bootstrap, ConnectionSource.of(first.url(), first.user(), first.password()),
        ServiceMetrics.create(NAME), service::notReady);
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      ops.close();
      done.countDown();
    }, "ingest-service-stop"));
    try {
      service.start(ops.metrics().registry());
    } catch (Exception | Error e) {
      // The endpoint's thread would keep a failed process alive, answering "live".
      ops.close();
      throw e;
    }
    // Sources added to or removed from the configuration are started or retired without a restart.
    SourcesWatcher watcher = new SourcesWatcher(() -> SchemaragConfig.fromEnvironment(Map.of()), SourceDatabases::of, sources,
        service::apply).start(Duration.ofMillis(config.getInt(ConfigKeys.SOURCES_RELOAD_MS)));
    Runtime.getRuntime().addShutdownHook(new Thread(watcher::close, "sources-watcher-stop"));
    done.await();
  }

  /**
   * The ingest service's health and metrics endpoint on {@code ingest.http.port}: ready when the
   * broker and the monitored database answer and capture streams.
   */
  public static ServiceOps serveHealth(SchemaragConfig config, String bootstrap, ConnectionSource db, ServiceMetrics metrics,
                                       IngestService service) {
    return serveHealth(config, bootstrap, db, metrics, service::notReady);
  }

  /** As above for every source: ready when each one's capture streams ({@link IngestSources#notReady}). */
  public static ServiceOps serveHealth(SchemaragConfig config, String bootstrap, ConnectionSource db, ServiceMetrics metrics,
                                       Readiness.Check capture) {
    return ServiceOps.start(NAME, config, ConfigKeys.INGEST_HTTP_PORT, bootstrap, db, metrics, Map.of("capture", capture));
  }
}
