package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.infra.TopicAdmin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture that stops with an error starts again by itself, and the change it failed on is
 * delivered once the cause is gone. The cause here is real: the DDL topic is deleted while the
 * ingest runs (the broker creates no topics), so publishing an audit row fails and Debezium stops.
 */
@Tag("integration")
class CaptureRestartIT {
  @TempDir Path temp;
  private final IngestTestRun it = new IngestTestRun("restart");
  private final String schema = it.schema;

  @AfterEach
  void cleanUp() throws SQLException {
    it.close();
  }

  @Test
  void aCaptureThatFailedStartsAgainAndDeliversTheChangeItFailedOn() throws Exception {
    String bootstrap = it.bootstrap;
    TopicCatalog topics = it.topics;
    it.sql("CREATE SCHEMA " + schema, "CREATE TABLE " + schema + ".customers (id int PRIMARY KEY)");
    Path docs = Files.createDirectories(temp.resolve("docs"));
    // A missing topic fails a send after max.block.ms: short, so the failure comes quickly.
    Map<String, Object> kafka = Map.of("bootstrap.servers", bootstrap, ProducerConfig.MAX_BLOCK_MS_CONFIG, 1500);
    IngestService ingest = it.start(it.settings(docs, kafka, 0, Duration.ZERO));

    try (KafkaConsumer<byte[], byte[]> ddl = it.consumer(); Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      ddl.subscribe(List.of(topics.ddl().name()));
      it.sql("CREATE TABLE " + schema + ".orders (id int PRIMARY KEY)");
      assertThat(await(ddl, topics, e -> String.valueOf(e.getObjectIdentity()).endsWith(".orders"), Duration.ofSeconds(60))).isTrue();
      ddl.unsubscribe();

      admin.deleteTopics(List.of(topics.ddl().name())).all().get();
      it.sql("CREATE TABLE " + schema + ".invoices (id int PRIMARY KEY)");
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      Optional<String> problem = ingest.notReady();
      while (problem.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
        problem = ingest.notReady();
      }
      assertThat(problem).as("the failed capture shows in readiness").hasValueSatisfying(p ->
          assertThat(p).contains("DDL capture (Debezium) failed", "started again after a backoff"));

      TopicAdmin.createMissing(bootstrap, List.of(topics.ddl()));
      ddl.subscribe(List.of(topics.ddl().name()));
      assertThat(await(ddl, topics, e -> String.valueOf(e.getObjectIdentity()).endsWith(".invoices"), Duration.ofSeconds(120)))
          .as("the change the capture failed on is delivered after it started again").isTrue();
      it.sql("CREATE TABLE " + schema + ".payments (id int PRIMARY KEY)");
      assertThat(await(ddl, topics, e -> String.valueOf(e.getObjectIdentity()).endsWith(".payments"), Duration.ofSeconds(60)))
          .as("the capture streams again").isTrue();
    }
    assertThat(ingest.captureRestarts()).isPositive();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (ingest.notReady().isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(ingest.notReady()).isEmpty();
  }

  private static boolean await(KafkaConsumer<byte[], byte[]> consumer, TopicCatalog topics, Predicate<DdlEvent> wanted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        DdlEvent e = topics.ddl().valueSerde().deserializer().deserialize(r.topic(), r.value());
        seen.add(String.valueOf(e.getObjectIdentity()));
        if (wanted.test(e)) {
          return true;
        }
      }
    }
    System.out.println("DDL events seen: " + seen);
    return false;
  }
}
