package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column values follow the data, which no DDL announces: after rows arrive and the statistics are
 * gathered again, the table is snapshotted anew with its values, and a table whose values did not move
 * is not.
 */
@Tag("integration")
class ColumnValuesRefreshIT {
  @TempDir Path temp;
  private final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  private final String schema = "values_" + run;
  private final ConnectionSource db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
  private IngestService ingest;

  @AfterEach
  void cleanUp() throws SQLException {
    if (ingest != null) {
      ingest.close();
    }
    new AuditInstaller(db, "pub_" + run).dropSlot("slot_" + run);
    sql("DROP PUBLICATION IF EXISTS pub_" + run, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  @Test
  void aTableWhoseValuesMovedIsSnapshottedAgainWithThemAndNoOtherIs() throws Exception {
    String bootstrap = TestInfra.kafkaBootstrap();
    TopicCatalog topics = ServiceSettings.topics(SchemaragConfig.load(Optional.empty(), Map.of(),
        Map.of("topics.prefix", "cv" + run, "topics.partitions", "1")));
    TopicAdmin.createMissing(bootstrap, topics.all());
    sql("CREATE SCHEMA " + schema, "CREATE TABLE " + schema + ".tickets (id int PRIMARY KEY, priority text)",
        "CREATE TABLE " + schema + ".teams (id int PRIMARY KEY, name text)",
        "INSERT INTO " + schema + ".teams VALUES (1, 'Billing desk'), (2, 'Tier 1')", "ANALYZE " + schema + ".teams");
    Path docs = Files.createDirectories(temp.resolve("docs"));
    ingest = new IngestService(new IngestService.Settings("values-" + run, List.of(schema), TestInfra.postgresUrl(), "", "",
        "slot_" + run, "pub_" + run, docs, Duration.ofMillis(50), Map.of(), Map.of("bootstrap.servers", bootstrap), 10,
        Duration.ofMillis(200)), topics);
    ingest.start();

    try (KafkaConsumer<byte[], byte[]> tables = consumer(bootstrap)) {
      tables.subscribe(List.of(topics.tables().name()));
      List<TableSnapshot> seen = new ArrayList<>();
      assertThat(await(tables, topics, seen, s -> s.getTableName().equals("tickets"), Duration.ofSeconds(60))).isTrue();
      assertThat(seen).filteredOn(s -> s.getTableName().equals("teams")).singleElement()
          .satisfies(s -> assertThat(s.getColumns().get(1).getValues()).containsExactlyInAnyOrder("Billing desk", "Tier 1"));
      assertThat(seen).filteredOn(s -> s.getTableName().equals("tickets")).singleElement()
          .satisfies(s -> assertThat(s.getColumns().get(1).getValues()).isEmpty());

      sql("INSERT INTO " + schema + ".tickets SELECT i, CASE WHEN i % 2 = 0 THEN 'urgent' ELSE 'low' END FROM generate_series(1, 100) AS i",
          "ANALYZE " + schema + ".tickets");
      assertThat(await(tables, topics, seen, s -> s.getTableName().equals("tickets") && !s.getColumns().get(1).getValues().isEmpty(),
          Duration.ofSeconds(60))).as("the tickets' values reach the catalog topic").isTrue();
      assertThat(seen.get(seen.size() - 1).getColumns().get(1).getValues()).containsExactlyInAnyOrder("urgent", "low");
      assertThat(seen.get(seen.size() - 1).getSourceTsMs()).isNull();
    }
    assertThat(ingest.valuesRefreshedTables()).isEqualTo(1);
  }

  private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "values-it-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** Polls until a snapshot matches, collecting every snapshot read (tombstones skipped). */
  private static boolean await(KafkaConsumer<byte[], byte[]> consumer, TopicCatalog topics, List<TableSnapshot> seen,
                               Predicate<TableSnapshot> wanted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        if (r.value() == null) {
          continue;
        }
        TableSnapshot s = topics.tables().valueSerde().deserializer().deserialize(r.topic(), r.value());
        seen.add(s);
        if (wanted.test(s)) {
          return true;
        }
      }
    }
    return false;
  }

  private void sql(String... statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }
}
