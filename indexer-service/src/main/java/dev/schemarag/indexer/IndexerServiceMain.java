package dev.schemarag.indexer;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.PooledConnections;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** Runs the indexer until SIGTERM; writes &lt;tmp&gt;/schemarag-ready once running (compose health check). */
public final class IndexerServiceMain {
  private IndexerServiceMain() {}

  /** The stream thread (embedding cache) and its store writer; a little headroom for a replaced thread. */
  static final int POOL_SIZE = 3;

  public static void main(String[] args) throws Exception {
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    PooledConnections db = PooledConnections.of(ServiceSettings.requiredDbUrl(config), config.get(ConfigKeys.DB_USER),
        config.get(ConfigKeys.DB_PASSWORD), POOL_SIZE, "indexer");
    IndexerService service = IndexerService.create(config, db, ServiceSettings.requiredBootstrap(config));
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      db.close();
      done.countDown();
    }, "indexer-stop"));
    service.start(Duration.ofMinutes(2));
    Files.writeString(Path.of(System.getProperty("java.io.tmpdir"), "schemarag-ready"), "ready\n");
    done.await();
  }
}
