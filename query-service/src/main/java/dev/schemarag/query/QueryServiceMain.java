package dev.schemarag.query;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
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
    String url = config.optional(ConfigKeys.DB_URL).orElseThrow(() -> new IllegalArgumentException("db.url (SCHEMARAG_DB_URL) is required"));
    String bootstrap = config.optional(ConfigKeys.KAFKA_BOOTSTRAP)
        .orElseThrow(() -> new IllegalArgumentException("kafka.bootstrap.servers (SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS) is required"));
    TopicCatalog topics = new TopicCatalog(new TopicSettings(config.get(ConfigKeys.TOPICS_PREFIX), config.getInt(ConfigKeys.TOPICS_PARTITIONS),
        (short) config.getInt(ConfigKeys.TOPICS_REPLICATION)), new SerdeFactory(new SerdeSettings(
        SerdeSettings.parseMode(config.get(ConfigKeys.SERDE_MODE)), config.optional(ConfigKeys.SERDE_REGISTRY_URL).orElse(null))));
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
