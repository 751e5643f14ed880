package dev.schemarag.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * A real KRaft broker inside this JVM, for integration tests: one shared broker per test run
 * ({@link #shared()}), tests isolate themselves with unique topic names.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  private static EmbeddedKafkaBroker shared;

  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final Path dir;

  private EmbeddedKafkaBroker(Path dir) {
    this.dir = dir;
    FreePorts ports = new FreePorts();
    int brokerPort = ports.next();
    int controllerPort = ports.next();
    Properties props = KraftBrokerConfig.properties(dir.resolve("data"), brokerPort, controllerPort);
    KraftBrokerConfig.format(props, dir.resolve("server.properties"));
    this.server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
    server.startup();
    this.bootstrapServers = "127.0.0.1:" + brokerPort;
    KafkaReadiness.await(bootstrapServers, Duration.ofSeconds(60));
  }

  /** Starts a broker with its data in a new temp directory. */
  public static EmbeddedKafkaBroker start() {
    try {
      return new EmbeddedKafkaBroker(Files.createTempDirectory("schemarag-kafka"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The broker of this test run: started on first use, stopped when the JVM exits. */
  public static synchronized EmbeddedKafkaBroker shared() {
    if (shared == null) {
      shared = start();
      EmbeddedKafkaBroker b = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(b::close, "embedded-kafka-stop"));
    }
    return shared;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
    Files2.deleteTree(dir);
  }
}
