package dev.schemarag.ingest;

import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the ingest service until SIGTERM; db.url and kafka.bootstrap.servers are required. Writes
 * &lt;tmp&gt;/schemarag-ready once streaming, for the compose health check.
 */
public final class IngestServiceMain {
  private IngestServiceMain() {}

  public static void main(String[] args) throws Exception {
    SchemaragConfig config = SchemaragConfig.fromEnvironment(Map.of());
    IngestService service = new IngestService(IngestService.Settings.from(config, ServiceSettings.requiredDbUrl(config),
        ServiceSettings.requiredBootstrap(config)), ServiceSettings.topics(config));
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      done.countDown();
    }, "ingest-service-stop"));
    service.start();
    Files.writeString(Path.of(System.getProperty("java.io.tmpdir"), "schemarag-ready"), "ready\n");
    done.await();
  }
}
