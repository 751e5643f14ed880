package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.events.docs.DocFileKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.service.CatalogSnapshots;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The indexer topology under {@code TopologyTestDriver} (no broker), writing to a real pgvector:
 * what each kind of change re-embeds, removes and moves, and that a poison record is dead-lettered
 * while the next one is indexed.
 */
@Tag("integration")
class IndexerTopologyIT {

  @TempDir
  Path stateDir;

  private static final IndexerTopology.Batching BATCHING = new IndexerTopology.Batching(256, java.time.Duration.ofMillis(25));
  private static PgChunkStore store;
  private static Langchain4jEmbedder model;
  private TopologyTestDriver driver;
  private TestInputTopic<TableKey, TableSnapshot> tables;
  private TestInputTopic<DocFileKey, DocFile> docs;
  private TestInputTopic<byte[], byte[]> rawTables;
  private TestOutputTopic<TableKey, IndexUpdate> updates;
  private TestOutputTopic<byte[], byte[]> tablesDlq;
  private TestInputTopic<byte[], byte[]> rawDocs;
  private TestOutputTopic<byte[], byte[]> docsDlq;
  private String db;
  private long clock = 1_000;

  @BeforeAll
  static void model() throws Exception {
    ConnectionSource pg = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    model = Langchain4jEmbedder.create("bge-small-en-v15-q", "", "", 32);
    store = new PgChunkStore(pg);
    store.ensureSchema(model.dimension());
  }

  @BeforeEach
  void driver() {
    db = "ttd-" + UUID.randomUUID();
    TopicCatalog topics = TopicCatalog.defaults();
    // A fresh cache per test: every embedding the step asks for is counted.
    IndexSync sync = new IndexSync(store, new CachingEmbedder(model, new InMemoryEmbeddingCache()), 16);
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "indexer-test");
    // a folder of its own: another JVM running these tests at the same time would hold the default one's lock
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(IndexerTopology.build(topics, new TableIndexer(sync), BATCHING), p);
    tables = driver.createInputTopic(topics.tables().name(), topics.tables().keySerde().serializer(), topics.tables().valueSerde().serializer());
    docs = driver.createInputTopic(topics.docs().name(), topics.docs().keySerde().serializer(), topics.docs().valueSerde().serializer());
    rawTables = driver.createInputTopic(topics.tables().name(), new ByteArraySerializer(), new ByteArraySerializer());
    updates = driver.createOutputTopic(topics.indexEvents().name(), topics.indexEvents().keySerde().deserializer(),
        topics.indexEvents().valueSerde().deserializer());
    tablesDlq = driver.createOutputTopic(topics.dlq(topics.tables()).name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    rawDocs = driver.createInputTopic(topics.docs().name(), new ByteArraySerializer(), new ByteArraySerializer());
    docsDlq = driver.createOutputTopic(topics.dlq(topics.docs()).name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @AfterEach
  void close() {
    driver.close();
  }

  private SchemaModel shop(String orderComment, String statusComment, String orders) {
    Table customers = new Table("shop.customers", Optional.of("Buyers"), List.of(
        new Column("id", "integer", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        Column.of("name", "text")), Optional.of("shop"));
    Table o = new Table(orders, Optional.ofNullable(orderComment), List.of(
        new Column("id", "integer", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        new Column("customer_id", "integer", true, Optional.empty(), Optional.empty(), false, Optional.of("shop.customers.id")),
        Column.of("status", "text").withComment(statusComment)), Optional.of("shop"));
    return new SchemaModel(db, List.of(customers, o),
        List.of(new ForeignKey("orders_customer_fk", orders, List.of("customer_id"), "shop.customers", List.of("id"))));
  }

  private void snapshot(SchemaModel model, String table) {
    clock += 1_000;
    tables.pipeInput(new TestRecord<>(CatalogSnapshots.key(db, CatalogSnapshots.QualifiedName.ofModelName(table)),
        CatalogSnapshots.of(model, table, clock, clock), java.time.Instant.ofEpochMilli(clock)));
    lingerPasses();
  }

  /** The input stays quiet for a linger: what is pending is written. */
  private void lingerPasses() {
    driver.advanceWallClockTime(BATCHING.linger());
    driver.advanceWallClockTime(BATCHING.linger());
  }

  private void tombstone(String table) {
    clock += 1_000;
    tables.pipeInput(new TestRecord<>(CatalogSnapshots.key(db, CatalogSnapshots.QualifiedName.ofModelName(table)), null,
        java.time.Instant.ofEpochMilli(clock)));
    lingerPasses();
  }

  private Map<String, Chunk> stored(String table) throws Exception {
    return store.load(db).stream().filter(c -> c.table().equals(table))
        .collect(Collectors.toMap(c -> c.subject().orElse(c.kind().label()), c -> c));
  }

  private IndexUpdate lastUpdate() {
    List<IndexUpdate> all = updates.readValuesToList();
    assertThat(all).isNotEmpty();
    return all.get(all.size() - 1);
  }

  @Test
  void aCommentOnOneColumnReembedsOnlyThatColumnsChunk() throws Exception {
    snapshot(shop("Purchases", "lifecycle state", "shop.orders"), "shop.orders");
    IndexUpdate first = lastUpdate();
    assertThat(first.getAdded()).isEqualTo(stored("shop.orders").size()).isGreaterThan(3);
    Map<String, Chunk> before = stored("shop.orders");

    snapshot(shop("Purchases", "open, paid or shipped " + db, "shop.orders"), "shop.orders");
    IndexUpdate u = lastUpdate();
    assertThat(u.getUpdated()).isEqualTo(1);
    assertThat(u.getAdded()).isZero();
    assertThat(u.getRemoved()).isZero();
    assertThat(u.getEmbedded()).isEqualTo(1);
    Map<String, Chunk> after = stored("shop.orders");
    assertThat(after.get("status").embedText()).contains("open, paid or shipped");
    // The overview names columns, not their comments: its text did not change, so it was not re-embedded.
    assertThat(after.get("overview").embedHash()).isEqualTo(before.get("overview").embedHash());
  }

  @Test
  void aTableCommentReembedsTheOverviewBecauseItsTextChanged() {
    snapshot(shop("Purchases", "state", "shop.orders"), "shop.orders");
    updates.readValuesToList();
    snapshot(shop("Purchases placed by buyers " + db, "state", "shop.orders"), "shop.orders");
    IndexUpdate u = lastUpdate();
    assertThat(u.getUpdated()).isEqualTo(1);
    assertThat(u.getEmbedded()).isEqualTo(1);
  }

  @Test
  void anUnchangedResnapshotEmbedsNothing() {
    SchemaModel m = shop("Purchases", "state", "shop.orders");
    snapshot(m, "shop.orders");
    updates.readValuesToList();
    snapshot(m, "shop.orders");
    IndexUpdate u = lastUpdate();
    assertThat(u.getEmbedded()).isZero();
    assertThat(u.getAdded() + u.getUpdated() + u.getRemoved()).isZero();
    assertThat(u.getUnchanged()).isGreaterThan(3);
  }

  @Test
  void aDropRemovesEveryChunkOfTheTable() throws Exception {
    snapshot(shop("Purchases", "state", "shop.orders"), "shop.orders");
    int n = stored("shop.orders").size();
    tombstone("shop.orders");
    IndexUpdate u = lastUpdate();
    assertThat(u.getRemoved()).isEqualTo(n);
    assertThat(stored("shop.orders")).isEmpty();
  }

  @Test
  void aRenameMovesTheChunksToTheNewName() throws Exception {
    snapshot(shop("Purchases", "state", "shop.orders"), "shop.orders");
    int n = stored("shop.orders").size();
    tombstone("shop.orders");
    snapshot(shop("Purchases", "state", "shop.purchases"), "shop.purchases");
    assertThat(stored("shop.orders")).isEmpty();
    assertThat(stored("shop.purchases")).hasSize(n).containsKeys("overview", "status", "customer_id");
  }

  @Test
  void aDocEditTouchesOnlyTheChunksWhoseTextChanged() throws Exception {
    snapshot(shop("Purchases", "state", "shop.orders"), "shop.orders");
    String doc = "# Table: shop.orders\n\n## Purpose\nOrders of the shop.\n\n## Columns\n\n### status\n- Description: where the order is\n"
        + "- Domain: open, paid\n\n## Common Queries\n\n### Query Pattern: Orders per status\n```sql\nSELECT status, count(*) FROM shop.orders GROUP BY status\n```\n"
        + "- Use case: How many orders per status\n";
    docs.pipeInput(new DocFileKey(db, "shop.orders.md"), new DocFile(db, "shop.orders.md", doc, "h1", clock += 1000));
    lingerPasses();
    IndexUpdate withDoc = lastUpdate();
    assertThat(withDoc.getAdded()).isEqualTo(1); // the query pattern
    assertThat(stored("shop.orders")).containsKey("Orders per status");

    String edited = doc.replace("- Domain: open, paid", "- Domain: open, paid, refunded " + db);
    docs.pipeInput(new DocFileKey(db, "shop.orders.md"), new DocFile(db, "shop.orders.md", edited, "h2", clock += 1000));
    lingerPasses();
    IndexUpdate u = lastUpdate();
    assertThat(u.getUpdated()).isEqualTo(1);
    assertThat(u.getAdded() + u.getRemoved()).isZero();
    assertThat(u.getEmbedded()).isEqualTo(1);
    assertThat(stored("shop.orders").get("status").embedText()).contains("refunded");

    docs.pipeInput(new DocFileKey(db, "shop.orders.md"), (DocFile) null);
    lingerPasses();
    assertThat(stored("shop.orders")).doesNotContainKey("Orders per status");
  }

  @Test
  void aPoisonRecordGoesToTheDlqAndTheNextRecordIsIndexed() throws Exception {
    rawTables.pipeInput("not a key".getBytes(StandardCharsets.UTF_8), "not a snapshot".getBytes(StandardCharsets.UTF_8));
    var dead = tablesDlq.readRecordsToList();
    assertThat(dead).hasSize(1);
    assertThat(new String(dead.get(0).headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
        .contains("undecodable table snapshot");
    assertThat(dead.get(0).value()).isEqualTo("not a snapshot".getBytes(StandardCharsets.UTF_8));

    snapshot(shop("Purchases", "state", "shop.orders"), "shop.orders");
    assertThat(stored("shop.orders")).containsKeys("overview", "status");
  }

  @Test
  void anUndecodableOrMalformedDocGoesToTheDocsDlqAndTheNextDocIsIndexed() throws Exception {
    snapshot(shop("Purchases", "state", "shop.orders"), "shop.orders");
    rawDocs.pipeInput("not a key".getBytes(StandardCharsets.UTF_8), "not a doc".getBytes(StandardCharsets.UTF_8));
    docs.pipeInput(new DocFileKey(db, "broken.md"), new DocFile(db, "broken.md", "Orders\n\nno table heading", "h0", clock += 1000));
    var dead = docsDlq.readRecordsToList();
    assertThat(dead).hasSize(2);
    assertThat(new String(dead.get(0).headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
        .contains("doc not indexable");
    assertThat(dead.get(0).value()).isEqualTo("not a doc".getBytes(StandardCharsets.UTF_8));
    assertThat(new String(dead.get(1).headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
        .contains("the first heading must be '# Table: <name>'");

    String doc = "# Table: shop.orders\n\n## Common Queries\n\n### Query Pattern: Paid orders\n```sql\nSELECT count(*) FROM shop.orders"
        + " WHERE status = 'paid'\n```\n";
    docs.pipeInput(new DocFileKey(db, "shop.orders.md"), new DocFile(db, "shop.orders.md", doc, "h1", clock += 1000));
    lingerPasses();
    assertThat(stored("shop.orders")).containsKey("Paid orders");
  }
}
