package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.events.catalog.TableSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
  private final IngestTestRun it = new IngestTestRun("values");
  private final String schema = it.schema;

  @AfterEach
  void cleanUp() throws SQLException {
    it.close();
  }

  @Test
  void aTableWhoseValuesMovedIsSnapshottedAgainWithThemAndNoOtherIs() throws Exception {
    TopicCatalog topics = it.topics;
    it.sql("CREATE SCHEMA " + schema, "CREATE TABLE " + schema + ".tickets (id int PRIMARY KEY, priority text)",
        "CREATE TABLE " + schema + ".teams (id int PRIMARY KEY, name text)",
        "INSERT INTO " + schema + ".teams VALUES (1, 'Billing desk'), (2, 'Tier 1')", "ANALYZE " + schema + ".teams");
    Path docs = Files.createDirectories(temp.resolve("docs"));
    IngestService ingest = it.start(it.settings(docs, Map.of("bootstrap.servers", it.bootstrap), 10, Duration.ofMillis(200)));

    try (KafkaConsumer<byte[], byte[]> tables = it.consumer()) {
      tables.subscribe(List.of(topics.tables().name()));
      List<TableSnapshot> seen = new ArrayList<>();
      assertThat(await(tables, topics, seen, s -> s.getTableName().equals("tickets"), Duration.ofSeconds(60))).isTrue();
      assertThat(seen).filteredOn(s -> s.getTableName().equals("teams")).singleElement()
          .satisfies(s -> assertThat(s.getColumns().get(1).getValues()).containsExactlyInAnyOrder("Billing desk", "Tier 1"));
      assertThat(seen).filteredOn(s -> s.getTableName().equals("tickets")).singleElement()
          .satisfies(s -> assertThat(s.getColumns().get(1).getValues()).isEmpty());

      it.sql("INSERT INTO " + schema + ".tickets SELECT i, CASE WHEN i % 2 = 0 THEN 'urgent' ELSE 'low' END FROM generate_series(1, 100) AS i",
          "ANALYZE " + schema + ".tickets");
      assertThat(await(tables, topics, seen, s -> s.getTableName().equals("tickets") && !s.getColumns().get(1).getValues().isEmpty(),
          Duration.ofSeconds(60))).as("the tickets' values reach the catalog topic").isTrue();
      assertThat(seen.get(seen.size() - 1).getColumns().get(1).getValues()).containsExactlyInAnyOrder("urgent", "low");
      assertThat(seen.get(seen.size() - 1).getSourceTsMs()).isNull();
    }
    assertThat(ingest.valuesRefreshedTables()).isEqualTo(1);
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
}
