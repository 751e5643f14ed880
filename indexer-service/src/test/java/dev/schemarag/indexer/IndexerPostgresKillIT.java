package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Hashing;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgEmbeddingCache;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.events.docs.DocFileKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.infra.LocalPostgres;
import dev.schemarag.service.CatalogSnapshots;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL killed (SIGKILL to the postmaster) while the indexer embeds a doc edit, on a cluster
 * of this test's own: the edit must not be dead-lettered, and once PostgreSQL is back the same
 * pending batch is written. The chaos suite lost such an edit: the embedding cache's write failed
 * after the model ran, the batch took that for a fault of the table and sent the edit to the DLQ.
 */
@Tag("integration")
class IndexerPostgresKillIT {

  @TempDir
  Path stateDir;

  /** Every change is written as it comes in, so a failed write fails the record that brought it. */
  private static final IndexerTopology.Batching AT_ONCE = new IndexerTopology.Batching(1, Duration.ofMillis(25));
  /** A database id of its own: rows an earlier run left (a cluster of the same name) cannot answer for this one. */
  private static final String DB = "pgkill-" + java.util.UUID.randomUUID();
  private static final String TABLE = "shop.orders";
  private static LocalPostgres pg;
  private static String url;

  /** A deterministic model; when armed, its next call kills PostgreSQL before it returns (the model ran, the store is gone). */
  static final class KillingModel implements Embedder {
    volatile boolean armed;

    @Override
    public String modelId() {
      return "pgkill-model";
    }

    @Override
    public int dimension() {
      return 4;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      if (armed) {
        armed = false;
        killPostgres();
      }
      return texts.stream().map(t -> {
        byte[] h = Hashing.sha256(t).getBytes(StandardCharsets.UTF_8);
        return new float[] {h[0], h[1], h[2], h[3]};
      }).toList();
    }
  }

  @BeforeAll
  static void cluster() {
    pg = new LocalPostgres("indexer-pgkill-" + ProcessHandle.current().pid());
    url = pg.start();
  }

  @AfterAll
  static void purge() {
    if (pg != null) {
      pg.purge();
    }
  }

  /** SIGKILL to the postmaster; returns once it and its backends are gone and pg_ctl knows it. */
  static void killPostgres() {
    ProcessHandle postmaster = ProcessHandle.of(pg.pid().orElseThrow()).orElseThrow();
    List<ProcessHandle> backends = postmaster.descendants().toList();
    postmaster.destroyForcibly();
    try {
      postmaster.onExit().get(30, TimeUnit.SECONDS);
      for (ProcessHandle b : backends) {
        // a backend outliving its postmaster would keep the restarted one from starting
        b.destroyForcibly();
        b.onExit().get(30, TimeUnit.SECONDS);
      }
      // pg_ctl takes a dead postmaster nobody has reaped yet for a running one
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (pg.running()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("PostgreSQL was killed but pg_ctl still reports it running");
        }
        Thread.sleep(100);
      }
    } catch (Exception e) {
      throw new IllegalStateException("could not kill PostgreSQL: " + e, e);
    }
  }

  private static SchemaModel shop() {
    Table orders = new Table(TABLE, Optional.of("Purchases"), List.of(
        new Column("id", "integer", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        Column.of("status", "text")), Optional.of("shop"));
    return new SchemaModel(DB, List.of(orders), List.of());
  }

  private static String doc(String purpose) {
    return "# Table: shop.orders\n\n## Purpose\n" + purpose + "\n";
  }

  @Test
  void aDocEditWhosePostgresIsKilledWhileItIsEmbeddedIsWrittenOnceItIsBackAndNotDeadLettered() throws Exception {
    ConnectionSource db = ConnectionSource.of(url, null, null);
    KillingModel model = new KillingModel();
    PgChunkStore store = new PgChunkStore(db);
    store.ensureSchema(model.dimension());
    IndexSync sync = new IndexSync(store, new CachingEmbedder(model, new PgEmbeddingCache(db)), 16);
    TopicCatalog topics = TopicCatalog.defaults();
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "indexer-pgkill-test");
    // a folder of its own: another JVM running these tests at the same time would hold the default one's lock
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    try (TopologyTestDriver driver = new TopologyTestDriver(IndexerTopology.build(topics, new TableIndexer(sync), AT_ONCE), p)) {
      TestInputTopic<TableKey, TableSnapshot> tables = driver.createInputTopic(topics.tables().name(),
          topics.tables().keySerde().serializer(), topics.tables().valueSerde().serializer());
      TestInputTopic<DocFileKey, DocFile> docs = driver.createInputTopic(topics.docs().name(), topics.docs().keySerde().serializer(),
          topics.docs().valueSerde().serializer());
      TestOutputTopic<TableKey, IndexUpdate> updates = driver.createOutputTopic(topics.indexEvents().name(),
          topics.indexEvents().keySerde().deserializer(), topics.indexEvents().valueSerde().deserializer());
      TestOutputTopic<byte[], byte[]> dlq = driver.createOutputTopic(topics.dlq(topics.tables()).name(), new ByteArrayDeserializer(),
          new ByteArrayDeserializer());

      tables.pipeInput(new TestRecord<>(CatalogSnapshots.key(DB, CatalogSnapshots.QualifiedName.ofModelName(TABLE)),
          CatalogSnapshots.of(shop(), TABLE, 1_000L, 1_000L), Instant.ofEpochMilli(1_000)));
      docs.pipeInput(new DocFileKey(DB, "shop.orders.md"), new DocFile(DB, "shop.orders.md", doc("Orders of the shop, first revision."),
          "h1", 2_000L), Instant.ofEpochMilli(2_000));
      // The batch's store write runs beside the task (overlapped batches): awaited, not read at once.
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> assertThat(overview(store).embedText()).contains("first revision"));
      driver.advanceWallClockTime(AT_ONCE.linger());
      assertThat(updates.readValuesToList()).as("the first revision's batch is finished by the tick").isNotEmpty();

      model.armed = true;
      DocFile edit = new DocFile(DB, "shop.orders.md", doc("Orders of the shop, second revision."), "h2", 3_000L);
      // The batch goes to the store writer while the task goes on; the next tick finishes it, finds the store gone (the
      // chunks' write and the embedding cache's insert beside it) and fails the task, which Streams restarts from its last commit.
      docs.pipeInput(new DocFileKey(DB, "shop.orders.md"), edit, Instant.ofEpochMilli(3_000));
      assertThatThrownBy(() -> driver.advanceWallClockTime(AT_ONCE.linger()))
          .isInstanceOf(StreamsException.class)
          .hasStackTraceContaining("pgvector write failed");
      assertThat(pg.running()).isFalse();
      assertThat(dlq.readRecordsToList()).as("nothing is dead-lettered because PostgreSQL was down").isEmpty();
      assertThat(updates.readValuesToList()).isEmpty();

      pg.start();
      // The edit is delivered again (its offset was not committed). Had the chunk hashes moved on with the failed write, it would
      // now count as unchanged and the index would keep the first revision.
      docs.pipeInput(new DocFileKey(DB, "shop.orders.md"), edit, Instant.ofEpochMilli(3_000));
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> assertThat(overview(store).embedText()).contains("second revision"));
      // The task that failed would be a new one in Streams, its punctuation scheduled again; here the next record of the
      // table (the same edit, unchanged now) finishes the batch in flight, which sends its update.
      docs.pipeInput(new DocFileKey(DB, "shop.orders.md"), edit, Instant.ofEpochMilli(3_001));
      assertThat(updates.readValuesToList()).hasSize(1).allSatisfy(u -> assertThat(u.getUpdated()).isEqualTo(1));
      assertThat(dlq.readRecordsToList()).isEmpty();
    }
  }

  private static Chunk overview(PgChunkStore store) throws Exception {
    return store.load(DB).stream().filter(c -> c.table().equals(TABLE) && c.kind().label().equals("overview")).findFirst().orElseThrow();
  }
}
