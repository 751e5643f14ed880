package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.ingest.AuditInstaller;
import dev.schemarag.ingest.IngestService;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live index end to end: DDL in a real PostgreSQL, captured by the real Debezium engine,
 * through a real broker and the indexer's Kafka Streams topology into pgvector.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LiveIndexIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static String schema;
  private static String databaseId;
  private static SchemaragConfig config;
  private static ConnectionSource db;
  private static PgChunkStore store;
  private static TopicCatalog topics;
  private static String bootstrap;
  private static String url;
  private static IngestService ingest;
  private static IndexerService indexer;
  @TempDir static Path temp;

  @BeforeAll
  static void start() throws Exception {
    url = TestInfra.postgresUrl();
    db = ConnectionSource.of(url, null, null);
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    schema = "live_" + run;
    databaseId = "live-" + run;
    bootstrap = TestInfra.kafkaBootstrap();
    Path docsRoot = temp.resolve("docs");
    Files.createDirectories(docsRoot.resolve(databaseId).resolve("docs"));
    config = SchemaragConfig.load(Optional.empty(), Map.of(), pairs(
        "database.id", databaseId, "catalog.schemas", schema, "topics.prefix", "it" + run, "topics.partitions", "2",
        "ingest.slot.name", "slot_" + run, "ingest.publication", "pub_" + run, "docs.root", docsRoot.toString(),
        "docs.debounce.ms", "50", "indexer.application.id", "indexer-" + run, "indexer.state.dir", temp.resolve("state").toString(),
        "embedding.model", "bge-small-en-v15-q"));
    topics = ServiceSettings.topics(config);
    TopicAdmin.createMissing(bootstrap, topics.all());
    sql("CREATE SCHEMA " + schema,
        "CREATE TABLE " + schema + ".customers (id int PRIMARY KEY, name text)",
        "COMMENT ON TABLE " + schema + ".customers IS 'People and companies who buy'");
    store = new PgChunkStore(db);
    indexer = IndexerService.create(config, db, bootstrap);
    indexer.start(WAIT);
    ingest = newIngest();
    ingest.start();
  }

  private static Map<String, String> pairs(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static IngestService newIngest() {
    return new IngestService(IngestService.Settings.from(config, url, bootstrap), topics);
  }

  @AfterAll
  static void stop() throws SQLException {
    if (ingest != null) {
      ingest.close();
    }
    if (indexer != null) {
      indexer.close();
    }
    new AuditInstaller(db, config.get(dev.schemarag.core.config.ConfigKeys.INGEST_PUBLICATION))
        .dropSlot(config.get(dev.schemarag.core.config.ConfigKeys.INGEST_SLOT));
    sql("DROP PUBLICATION IF EXISTS pub_" + databaseId.substring(5), "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  private static void sql(String... statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  /** Stored chunks of a table (model name), by subject (column name, or kind for the others). */
  private static Map<String, Chunk> chunks(String table) throws SQLException {
    return store.load(databaseId).stream().filter(c -> c.table().equals(table))
        .collect(Collectors.toMap(c -> c.subject().orElse(c.kind().label()), c -> c, (a, b) -> a));
  }

  private static String t(String table) {
    return schema + "." + table;
  }

  @Test
  @Order(1)
  void theFirstStartIndexesEveryTableAndThenBuildsTheVectorIndexes() throws SQLException {
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("customers"))).containsKeys("overview", "id", "name"));
    // Once the first snapshot is written and the indexer is quiet, the store has its graphs.
    await().atMost(WAIT).until(indexer::vectorIndexesReady);
    assertThat(store.missingVectorIndexes()).isEmpty();
  }

  @Test
  @Order(2)
  void createTableAddsItsChunks() throws Exception {
    sql("CREATE TABLE " + t("orders") + " (id int PRIMARY KEY, customer_id int, total numeric)");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("orders"))).containsKeys("overview", "id", "customer_id", "total"));
  }

  @Test
  @Order(3)
  void addColumnAndCommentsReachTheirChunks() throws Exception {
    sql("ALTER TABLE " + t("orders") + " ADD COLUMN note text");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("orders"))).containsKey("note"));
    sql("COMMENT ON COLUMN " + t("orders") + ".note IS 'free text remark by the buyer'");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("orders")).get("note").embedText()).contains("free text remark by the buyer"));
    sql("COMMENT ON TABLE " + t("orders") + " IS 'Purchases placed by customers'");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("orders")).get("overview").embedText()).contains("Purchases placed by customers"));
  }

  @Test
  @Order(4)
  void renameAndDropColumnMoveAndRemoveTheChunk() throws Exception {
    sql("ALTER TABLE " + t("orders") + " RENAME COLUMN note TO remark");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("orders"))).containsKey("remark").doesNotContainKey("note"));
    sql("ALTER TABLE " + t("orders") + " DROP COLUMN remark");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("orders"))).doesNotContainKey("remark").containsKey("total"));
  }

  @Test
  @Order(5)
  void aNewForeignKeyAlsoRefreshesTheReferencedTable() throws Exception {
    sql("ALTER TABLE " + t("orders") + " ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES " + t("customers") + "(id)");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      assertThat(chunks(t("orders")).get("customer_id").promptText()).contains("FK→" + t("customers") + ".id");
      assertThat(chunks(t("customers"))).containsKey("relationship");
      assertThat(chunks(t("customers")).get("relationship").promptText()).contains(t("orders") + ".customer_id");
    });
  }

  @Test
  @Order(6)
  void renameTableMovesEveryChunk() throws Exception {
    int before = chunks(t("orders")).size();
    sql("ALTER TABLE " + t("orders") + " RENAME TO purchases");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      assertThat(chunks(t("orders"))).isEmpty();
      assertThat(chunks(t("purchases"))).hasSize(before);
    });
  }

  @Test
  @Order(7)
  void dropTableRemovesEveryChunk() throws Exception {
    sql("DROP TABLE " + t("purchases"));
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      assertThat(chunks(t("purchases"))).isEmpty();
      // The customers' relationship chunk loses the dropped table too.
      assertThat(chunks(t("customers"))).doesNotContainKey("relationship");
    });
  }

  @Test
  @Order(8)
  void ddlMadeWhileIngestIsDownArrivesOnceAfterRestart() throws Exception {
    ingest.close();
    sql("CREATE TABLE " + t("invoices") + " (id int PRIMARY KEY, amount numeric)",
        "COMMENT ON COLUMN " + t("invoices") + ".amount IS 'billed amount while ingest was down'");
    ingest = newIngest();
    ingest.start();
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("invoices")).get("amount").embedText())
        .contains("billed amount while ingest was down"));
    List<Long> ids = ddlEventIds();
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(ids).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  @Order(9)
  void anIndexerStoppedMidBatchCatchesUpToWhatAFromScratchIndexGives() throws Exception {
    indexer.close();
    List<String> ddl = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      ddl.add("CREATE TABLE " + t("batch_" + i) + " (id int PRIMARY KEY, label text, parent_id int REFERENCES " + t("customers") + "(id))");
    }
    sql(ddl.toArray(String[]::new));
    indexer = IndexerService.create(config, db, bootstrap);
    indexer.start(WAIT);
    // Stop it while it works through the backlog, then let a new instance finish.
    await().atMost(WAIT).until(() -> store.load(databaseId).stream().anyMatch(c -> c.table().startsWith(t("batch_"))));
    indexer.close();
    indexer = IndexerService.create(config, db, bootstrap);
    indexer.start(WAIT);

    var catalog = new PgCatalogReader(db).read(databaseId, List.of(schema));
    Map<String, String> expected = new HashMap<>();
    Chunker.chunkAll(catalog, Map.of()).forEach(c -> expected.put(c.id(), c.contentHash()));
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      Map<String, String> stored = new HashMap<>();
      store.load(databaseId).forEach(c -> stored.put(c.id(), c.contentHash()));
      assertThat(stored).isEqualTo(expected);
    });
  }

  @Test
  @Order(10)
  void grantAndRevokeAreCapturedLikeOtherDdl() throws Exception {
    sql("GRANT SELECT ON " + t("customers") + " TO PUBLIC", "REVOKE SELECT ON " + t("customers") + " FROM PUBLIC");
    // The query service reads a role's privileges again on these events.
    await().atMost(WAIT).untilAsserted(() -> assertThat(ddlEvents().stream()
        .filter(e -> e.getStatement() != null && e.getStatement().contains(t("customers"))).map(DdlEvent::getCommandTag))
        .contains("GRANT", "REVOKE"));
  }

  @Test
  @Order(11)
  void ddlThatCommitsAfterALaterStatementIsNotSkipped() throws Exception {
    // An audit row's event id is drawn when its statement runs: this one draws the lower id and commits last.
    try (Connection first = db.open(); Statement s = first.createStatement()) {
      first.setAutoCommit(false);
      s.execute("COMMENT ON COLUMN " + t("customers") + ".name IS 'drawn first, committed last'");
      sql("COMMENT ON COLUMN " + t("invoices") + ".amount IS 'drawn last, committed first'");
      await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("invoices")).get("amount").embedText())
          .contains("drawn last, committed first"));
      first.commit();
    }
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks(t("customers")).get("name").embedText())
        .contains("drawn first, committed last"));
  }

  private static List<Long> ddlEventIds() {
    return ddlEvents().stream().map(DdlEvent::getEventId).toList();
  }

  private static List<DdlEvent> ddlEvents() {
    Map<String, Object> c = new HashMap<>(ServiceSettings.kafka(config, bootstrap));
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "check-" + UUID.randomUUID());
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<DdlEvent> events = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topics.ddl().name()));
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      int empty = 0;
      while (System.nanoTime() < deadline && empty < 3) {
        var records = consumer.poll(Duration.ofMillis(500));
        empty = records.isEmpty() ? empty + 1 : 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
          events.add(topics.ddl().valueSerde().deserializer().deserialize(r.topic(), r.value()));
        }
      }
    }
    return events;
  }
}
