package dev.schemarag.query;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Several workers over several partitions, and the live index: real broker, PostgreSQL and
 * pgvector, the index read from the store the indexer writes and refreshed by its index events.
 */
@Tag("integration")
class QueryServiceWorkersIT {

  private static final int PARTITIONS = 4;
  private static final int QUESTIONS = 24;
  private static String schema;
  private static String databaseId;
  private static String bootstrap;
  private static TopicCatalog topics;
  private static ScriptedLlmServer llm;
  private static QueryService service;
  private static ConnectionSource admin;
  private static IndexSync sync;
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  @BeforeAll
  static void start() throws Exception {
    QueryTestBed bed = QueryTestBed.create("qw");
    admin = bed.admin;
    schema = bed.schema;
    databaseId = bed.databaseId;
    String reply = "```sql\nSELECT count(*) AS orders FROM " + schema + ".orders\n```";
    llm = new ScriptedLlmServer(prompt -> reply);
    bootstrap = bed.bootstrap;
    QueryTestBed.Topics t = bed.topics(PARTITIONS);
    topics = t.catalog();

    // What the indexer would have written: the store serves this database (query.index.source=store).
    Langchain4jEmbedder embedder = Langchain4jEmbedder.create("all-minilm-l6-v2", null, null, 32);
    PgChunkStore store = new PgChunkStore(admin);
    store.ensureSchema(embedder.dimension());
    sync = new IndexSync(store, new CachingEmbedder(embedder, new InMemoryEmbeddingCache()), 32);
    indexCatalog();

    service = bed.service(t, bed.config(t, Map.of("llm.base.url", llm.openAiUrl(), "llm.model", "stub", "query.index.source", "store")));
    service.start(3);
  }

  private static void indexCatalog() throws Exception {
    SchemaModel model = new PgCatalogReader(admin).read(databaseId, List.of(schema));
    sync.sync(databaseId, Optional.empty(), Chunker.chunkAll(model, Map.of()), System.currentTimeMillis(), n -> { });
  }

  @AfterAll
  static void stop() {
    service.close();
    llm.close();
  }

  private static QuestionRequested question(String id, String text, boolean groundingOnly) {
    return QuestionRequested.newBuilder().setQueryId(id + "-" + RUN).setDatabaseId(databaseId).setQuestion(text)
        .setOptions(QuestionOptions.newBuilder().setGroundingOnly(groundingOnly).build()).setRequestedBy("it")
        .setRequestedAtMs(System.currentTimeMillis()).build();
  }

  /** Sends requests keyed by query_id; returns the partition each landed on. */
  private static Map<String, Integer> ask(List<QuestionRequested> qs) throws Exception {
    var t = topics.requests();
    Map<String, Integer> partitions = new HashMap<>();
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      for (QuestionRequested q : qs) {
        RecordMetadata m = p.send(new ProducerRecord<>(t.name(), t.keySerde().serializer().serialize(t.name(), new QueryKey(q.getQueryId())),
            t.valueSerde().serializer().serialize(t.name(), q))).get();
        Integer before = partitions.put(q.getQueryId(), m.partition());
        assertThat(before == null || before == m.partition()).as("one query_id, one partition").isTrue();
      }
    }
    return partitions;
  }

  /** Reads the results topic until an answer for every id has arrived, then a little past (60 s at most). */
  private static List<ConsumerRecord<byte[], byte[]>> results(java.util.function.Predicate<List<QueryAnswered>> done) {
    List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
    var results = topics.results();
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(results.name()));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline
          && !done.test(got.stream().map(r -> results.valueSerde().deserializer().deserialize(results.name(), r.value())).toList())) {
        c.poll(Duration.ofMillis(200)).forEach(got::add);
      }
    }
    return got;
  }

  @Test
  void severalWorkersAnswerEachQueryIdOnceOnItsOwnPartitionAndSendTheSameAnswerWhenAskedAgain() throws Exception {
    List<QuestionRequested> qs = IntStream.range(0, QUESTIONS).mapToObj(i -> question("w-" + i, "How many orders are there?", false)).toList();
    List<QuestionRequested> twice = new ArrayList<>(qs);
    twice.addAll(qs);
    Map<String, Integer> partitions = ask(twice);
    assertThat(partitions.values()).as("spread over partitions").hasSizeGreaterThan(1);

    var results = topics.results();
    // every request gets its event: the originals and, after them on the same partition, the second ones
    List<ConsumerRecord<byte[], byte[]>> got = results(l -> l.stream().filter(a -> a.getQueryId().startsWith("w-")).count() >= 2L * QUESTIONS);

    Map<String, List<QueryAnswered>> answered = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : got) {
      QueryAnswered a = results.valueSerde().deserializer().deserialize(results.name(), r.value());
      if (a.getQueryId().startsWith("w-")) {
        answered.computeIfAbsent(a.getQueryId(), k -> new ArrayList<>()).add(a);
        assertThat(r.partition()).as("answer keyed like its request").isEqualTo(partitions.get(a.getQueryId()));
        assertThat(a.getRowsPreview()).containsExactly(List.of("3"));
      }
    }
    assertThat(answered).hasSize(QUESTIONS);
    // asked twice, answered once: the second request gets the stored answer, the same event again
    answered.forEach((id, as) -> assertThat(as).as(id).hasSize(2).containsOnly(as.get(0)));
    assertThat(llm.requests()).hasSize(QUESTIONS);
  }

  @Test
  void theServiceLoadsItsIndexOnceAndAsksItQuestionsOfItsOwnSchemaWhenItStarts() throws Exception {
    long configured = Long.parseLong(ConfigKeys.QUERY_WARM_UP_QUESTIONS.defaultValue());
    await().atMost(Duration.ofSeconds(60)).until(() -> service.warmUpAsked() == configured);
    // Questions of other tests may have come while the warm-up loaded the index: they waited for that load.
    assertThat(service.indexes().loads()).as("the warm-up's load is the only one").isEqualTo(1);
    ask(List.of(question("after-warm-up", "How many orders are there?", true)));
    assertThat(answer("after-warm-up-" + RUN).getTables()).contains(schema + ".orders");
    assertThat(service.indexes().loads()).as("the first question after the warm-up finds the index loaded").isEqualTo(1);
  }

  @Test
  void aChangeToOneTableReachesTheNextQuestionWithoutReloadingTheIndex() throws Exception {
    ask(List.of(question("before", "Which invoices are unpaid?", true)));
    QueryAnswered before = answer("before-" + RUN);
    assertThat(before.getTables()).noneMatch(t -> t.endsWith(".invoices"));
    SchemaIndexCache indexes = service.indexes();
    // A small database's vectors are held by the query side and searched there; each update carries the new texts' vectors.
    assertThat(indexes.get(databaseId).vectors()).as("vectors held in memory").isPresent();
    long loads = indexes.loads();
    long updates = indexes.tableUpdates();
    long warmed = indexes.warmed();

    // A table is added.
    ddl("CREATE TABLE " + schema + ".invoices (invoice_id int PRIMARY KEY, order_id int REFERENCES " + schema + ".orders, paid boolean)");
    signal("invoices", 3, 0, 0);
    assertThat(answerSeen("added", "Which invoices are unpaid?", a -> a.getTables().contains(schema + ".invoices")))
        .as("a question after the index event sees the new table").isTrue();

    // One of its columns is added and described.
    ddl("ALTER TABLE " + schema + ".invoices ADD COLUMN due_date date");
    ddl("COMMENT ON COLUMN " + schema + ".invoices.due_date IS 'when payment is due'");
    signal("invoices", 1, 0, 0);
    assertThat(answerSeen("column", "Which invoices are due next week?",
        a -> a.getContextPacket() != null && a.getContextPacket().contains("due_date date"))).as("the new column is in the packet").isTrue();

    // It is dropped.
    ddl("DROP TABLE " + schema + ".invoices");
    signal("invoices", 0, 0, 5);
    assertThat(answerSeen("dropped", "Which invoices are unpaid?", a -> a.getTables().stream().noneMatch(t -> t.endsWith(".invoices"))))
        .as("a dropped table leaves the packet").isTrue();

    assertThat(indexes.loads()).as("no full reload of the index").isEqualTo(loads);
    assertThat(indexes.get(databaseId).vectors()).as("vectors still held after the updates").isPresent();
    assertThat(indexes.tableUpdates()).as("each change applied to its table").isGreaterThanOrEqualTo(updates + 3);
    assertThat(indexes.warmed()).as("each new version asked the last question before it was served").isGreaterThanOrEqualTo(warmed + 3);
  }

  private static void ddl(String sql) throws Exception {
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** What the indexer does for a changed table: its chunks written, then its index event. */
  private static void signal(String table, int added, int updated, int removed) throws Exception {
    indexCatalog();
    var t = topics.indexEvents();
    IndexUpdate u = IndexUpdate.newBuilder().setDatabaseId(databaseId).setSchemaName(schema).setTableName(table)
        .setAdded(added).setUpdated(updated).setRemoved(removed).setUnchanged(0).setEmbeddingModel("all-minilm-l6-v2")
        .setIndexedAtMs(System.currentTimeMillis()).build();
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      TableKey key = new TableKey(databaseId, schema, table);
      p.send(new ProducerRecord<>(t.name(), t.keySerde().serializer().serialize(t.name(), key), t.valueSerde().serializer().serialize(t.name(), u)))
          .get();
    }
  }

  /** The signal and the next question race: asks until an answer shows the change (60 s at most). */
  private static boolean answerSeen(String name, String text, java.util.function.Predicate<QueryAnswered> changed) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    for (int i = 0; System.nanoTime() < deadline; i++) {
      ask(List.of(question(name + "-" + i, text, true)));
      if (changed.test(answer(name + "-" + i + "-" + RUN))) {
        return true;
      }
    }
    return false;
  }

  private static QueryAnswered answer(String queryId) {
    var results = topics.results();
    return results(l -> l.stream().anyMatch(a -> a.getQueryId().equals(queryId))).stream()
        .map(r -> results.valueSerde().deserializer().deserialize(results.name(), r.value()))
        .filter(a -> a.getQueryId().equals(queryId)).findFirst().orElseThrow(() -> new AssertionError("no answer for " + queryId));
  }
}
