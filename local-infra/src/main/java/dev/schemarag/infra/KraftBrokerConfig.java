package dev.schemarag.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Properties;

/** Settings of a one-node KRaft broker+controller on 127.0.0.1, shared by the in-process and the process broker. */
final class KraftBrokerConfig {
  private KraftBrokerConfig() {}

  static Properties properties(Path logDir, int brokerPort, int controllerPort) {
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("log.dirs", logDir.toAbsolutePath().toString());
    // A single node: every internal topic has one replica, or consumers never join.
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "5");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "5");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("num.partitions", "1");
    // Topics come from the catalog, as in production.
    p.put("auto.create.topics.enable", "false");
    // The cleaner's default 128 MB buffer is far more than a local broker needs.
    p.put("log.cleaner.dedupe.buffer.size", "2097152");
    p.put("log.flush.interval.messages", "1000000");
    return p;
  }

  /** Formats the storage directory (KRaft needs a cluster id in meta.properties before start). */
  static void format(Properties props, Path propsFile) {
    try (var out = java.nio.file.Files.newOutputStream(propsFile)) {
      props.store(out, "schemarag local KRaft broker");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // A restart keeps the cluster id of the first start: the storage tool refuses another one even with --ignore-formatted.
    String clusterId = existingClusterId(Path.of(props.getProperty("log.dirs")))
        .orElseGet(() -> org.apache.kafka.common.Uuid.randomUuid().toString());
    var buf = new java.io.ByteArrayOutputStream();
    int rc = kafka.tools.StorageTool.execute(
        new String[] {"format", "-t", clusterId, "-c", propsFile.toString(), "--ignore-formatted"},
        new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
    if (rc != 0) {
      throw new LocalInfraException("formatting Kafka storage failed: " + buf);
    }
  }

  /** The cluster id a formatted log directory holds (its meta.properties), if formatted. */
  static java.util.Optional<String> existingClusterId(Path logDir) {
    Path meta = logDir.resolve("meta.properties");
    if (!java.nio.file.Files.isRegularFile(meta)) {
      return java.util.Optional.empty();
    }
    Properties p = new Properties();
    try (var in = java.nio.file.Files.newInputStream(meta)) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + meta, e);
    }
    return java.util.Optional.ofNullable(p.getProperty("cluster.id")).filter(s -> !s.isBlank());
  }
}
