package dev.schemarag.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A KRaft broker as a separate JVM (the embedded default): survives nothing but its own stop,
 * logs to {@code <dir>/kafka.log}, keeps its data in {@code <dir>/data}.
 */
public final class KafkaBrokerProcess {

  private final Process process;
  private final String bootstrapServers;
  private final Path dir;

  private KafkaBrokerProcess(Process process, String bootstrapServers, Path dir) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
    this.dir = dir;
  }

  /** Formats {@code dir} on first use and starts the broker with the classpath of this JVM. */
  public static KafkaBrokerProcess start(Path dir) {
    try {
      Files.createDirectories(dir);
      FreePorts ports = new FreePorts();
      int brokerPort = ports.next();
      int controllerPort = ports.next();
      Properties props = KraftBrokerConfig.properties(dir.resolve("data"), brokerPort, controllerPort);
      Path propsFile = dir.resolve("server.properties");
      // Fresh data each start: the embedded default is a throwaway, and a reformat avoids stale cluster ids.
      Files2.deleteTree(dir.resolve("data"));
      KraftBrokerConfig.format(props, propsFile);
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // The JIT's first tier only: this broker carries one developer's events, and its C2 compiles took cores from the
      // indexer's embedding model (bench scale at 3,000 tables: the broker used 10.7 s of CPU during the initial index
      // with both tiers, 8.8 and 7.9 s with the first).
      Process p = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
          "-cp", System.getProperty("java.class.path"), "kafka.Kafka", propsFile.toString()))
          .redirectErrorStream(true)
          .redirectOutput(dir.resolve("kafka.log").toFile())
          .start();
      String bootstrap = "127.0.0.1:" + brokerPort;
      try {
        KafkaReadiness.await(bootstrap, Duration.ofSeconds(60));
      } catch (RuntimeException e) {
        p.destroyForcibly();
        throw new LocalInfraException(e.getMessage() + " (see " + dir.resolve("kafka.log") + ")", e);
      }
      return new KafkaBrokerProcess(p, bootstrap, dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Kafka broker process", e);
    }
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public long pid() {
    return process.pid();
  }

  public Path dir() {
    return dir;
  }

  /** SIGTERM, then SIGKILL after {@code grace}. */
  public void stop(Duration grace) {
    stop(process.toHandle(), grace);
  }

  /** Stops a broker by pid (used by {@code demo --stop} from another process). */
  public static void stop(ProcessHandle handle, Duration grace) {
    if (!handle.isAlive()) {
      return;
    }
    handle.destroy();
    try {
      handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      handle.destroyForcibly();
      try {
        handle.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception ignored) {
        // nothing more can be done from here
      }
    }
  }
}
