package dev.schemarag.query;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the query service until SIGTERM: configuration from file and environment; db.url and
 * kafka.bootstrap.servers are required here (the CLI's embedded default supplies local ones).
 * Writes /tmp/schemarag-ready once it consumes, for the compose health check.
 */
public final class QueryServiceMain {
  private QueryServiceMain() {}

  static final Path READY = Path.of(System.getProperty("java.io.tmpdir"), "schemarag-ready");

  public static void main(String[] args) throws Exception {
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    String url = ServiceSettings.requiredDbUrl(config);
    String bootstrap = ServiceSettings.requiredBootstrap(config);
    TopicCatalog topics = ServiceSettings.topics(config);
    ConnectionSource admin = ConnectionSource.of(url, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
    QueryService service = QueryServices.create(config, admin, url, topics, bootstrap);
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      done.countDown();
    }, "query-service-stop"));
    service.start(config.getInt(ConfigKeys.QUERY_WORKERS));
    Files.writeString(READY, "ready\n");
    done.await();
  }
}
