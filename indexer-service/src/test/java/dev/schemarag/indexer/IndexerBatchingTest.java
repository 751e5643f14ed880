package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Hashing;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.index.ChunkStore;
import dev.schemarag.core.index.InMemoryChunkStore;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.service.CatalogSnapshots;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The indexer's batching under {@code TopologyTestDriver}, with an in-memory chunk store and a
 * recording embedder (no broker, no database, no model): tables wait for their batch, a batch is
 * embedded in one pass, a table is pending at most once, and a failing table leaves its batch.
 */
class IndexerBatchingTest {

  @TempDir
  Path stateDir;

  private static final String DB = "shop";
  private static final Duration LINGER = Duration.ofMillis(25);

  /**
   * Vectors from the text's hash; remembers the size of every call; refuses texts that say "poison";
   * while {@link #gate} is shut, a call waits for it (at most five seconds).
   */
  static final class RecordingEmbedder implements Embedder {
    final List<Integer> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
    final java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
    volatile java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(0);

    @Override
    public String modelId() {
      return "recording";
    }

    @Override
    public int dimension() {
      return 4;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      calls.add(texts.size());
      try {
        gate.await(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      finished.incrementAndGet();
      for (String t : texts) {
        if (t.contains("poison")) {
          throw new IllegalArgumentException("the model refused a text: " + t);
        }
      }
      return texts.stream().map(t -> {
        byte[] h = Hashing.sha256(t).getBytes(StandardCharsets.UTF_8);
        return new float[] {h[0], h[1], h[2], h[3]};
      }).toList();
    }
  }

  private final RecordingEmbedder model = new RecordingEmbedder();
  private final InMemoryChunkStore store = new InMemoryChunkStore();
  private final InMemoryEmbeddingCache cache = new InMemoryEmbeddingCache();
  private TopologyTestDriver driver;
  private TestInputTopic<TableKey, TableSnapshot> tables;
  private TestOutputTopic<TableKey, IndexUpdate> updates;
  private TestOutputTopic<byte[], byte[]> dlq;
  private long clock = 1_000;
  private TableIndexer indexer;

  private void start(int maxChunks) {
    TopicCatalog topics = TopicCatalog.defaults();
    indexer = new TableIndexer(new IndexSync(store, new CachingEmbedder(model, cache), 64));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "indexer-batching-test");
    // a folder of its own: another JVM running these tests at the same time would hold the default one's lock
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(IndexerTopology.build(topics, indexer, new IndexerTopology.Batching(maxChunks, LINGER)), p);
    tables = driver.createInputTopic(topics.tables().name(), topics.tables().keySerde().serializer(), topics.tables().valueSerde().serializer());
    updates = driver.createOutputTopic(topics.indexEvents().name(), topics.indexEvents().keySerde().deserializer(),
        topics.indexEvents().valueSerde().deserializer());
    dlq = driver.createOutputTopic(topics.dlq(topics.tables()).name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  /** A table of {@code columns} columns (an overview chunk plus one per column), the last one commented. */
  private void snapshot(String table, int columns, String lastComment) {
    List<Column> cols = new ArrayList<>();
    IntStream.range(0, columns).forEach(i -> cols.add(Column.of("c" + i, "text")));
    cols.set(columns - 1, cols.get(columns - 1).withComment(lastComment));
    SchemaModel m = new SchemaModel(DB, List.of(new Table(table, Optional.empty(), cols, Optional.of("sales"))), List.of());
    clock += 1_000;
    tables.pipeInput(new TestRecord<>(CatalogSnapshots.key(DB, CatalogSnapshots.QualifiedName.ofModelName(table)),
        CatalogSnapshots.of(m, table, clock, clock), Instant.ofEpochMilli(clock)));
  }

  /** Two ticks (the driver fires one per advance): one that saw the last record, one that saw none. */
  private void inputGoesQuiet() {
    driver.advanceWallClockTime(LINGER);
    driver.advanceWallClockTime(LINGER);
  }

  private long storedChunks(String table) {
    return store.all().values().stream().filter(s -> s.row().chunk().table().equals(table)).count();
  }

  @Test
  void tablesWaitForTheLingerAndAreEmbeddedInOnePass() {
    start(256);
    for (int i = 0; i < 10; i++) {
      snapshot("sales.t" + i, 4, "note " + i);
    }
    assertThat(updates.isEmpty()).isTrue();
    assertThat(model.calls).isEmpty();

    inputGoesQuiet();
    List<IndexUpdate> all = updates.readValuesToList();
    assertThat(all).hasSize(10);
    assertThat(all).allSatisfy(u -> assertThat(u.getAdded()).isEqualTo(5));
    // Fifty texts, all distinct: one model call, no per-table calls.
    assertThat(model.calls).containsExactly(50);
    assertThat(all.stream().mapToInt(IndexUpdate::getEmbedded).sum()).isEqualTo(50);
    assertThat(storedChunks("sales.t7")).isEqualTo(5);
  }

  @Test
  void theIndexerAccountsForEveryTableItChunkedAndEveryBatchItWrote() {
    start(256);
    for (int i = 0; i < 10; i++) {
      snapshot("sales.t" + i, 4, "note " + i);
    }
    inputGoesQuiet();
    assertThat(updates.readValuesToList()).hasSize(10);

    TableIndexer.Timings t = indexer.timings();
    assertThat(t.prepared()).isEqualTo(10);
    assertThat(t.prepareNanos()).isPositive();
    assertThat(t.sync().applies()).isEqualTo(1);
    assertThat(t.fullBatches()).isZero();
    assertThat(t.sync().chunks()).isEqualTo(50);
    // Nested spans: the batch's time on the embedding thread holds its embedding, which holds the cache lookup and the model.
    assertThat(t.applyNanos()).isGreaterThanOrEqualTo(t.sync().embedNanos());
    assertThat(t.sync().embedNanos()).isGreaterThanOrEqualTo(t.sync().modelNanos() + t.sync().lookupNanos());
  }

  @Test
  void aBatchsNewVectorsReachTheEmbeddingCacheWithItsWrite() {
    start(256);
    for (int i = 0; i < 3; i++) {
      snapshot("sales.t" + i, 4, "note " + i);
    }
    inputGoesQuiet();
    assertThat(updates.readValuesToList()).hasSize(3);
    List<String> hashes = store.all().values().stream().map(s -> Hashing.sha256(s.row().chunk().embedText())).toList();
    assertThat(hashes).hasSize(15);
    assertThat(cache.getAll("recording", hashes)).hasSize(15);
  }

  @Test
  void aSingleChangeIsWrittenOnceTheInputWasQuietForATick() {
    start(256);
    snapshot("sales.only", 2, "comes alone");
    driver.advanceWallClockTime(LINGER);
    // It came during this tick: the next may bring more.
    assertThat(updates.isEmpty()).isTrue();
    driver.advanceWallClockTime(LINGER);
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("only");
  }

  @Test
  void aSteadyTrickleIsWrittenAfterItsMostTicksThoughItNeverGoesQuiet() {
    start(256);
    Duration gap = Duration.ofMillis(10);
    int records = (int) (LINGER.multipliedBy(IndexerTopology.IndexTable.MAX_WAIT_LINGERS).toMillis() / gap.toMillis());
    for (int i = 0; i < records; i++) {
      snapshot("sales.t" + i, 2, "trickle " + i);
      if (i < records - 1) {
        driver.advanceWallClockTime(gap);
      }
    }
    assertThat(updates.isEmpty()).isTrue();
    driver.advanceWallClockTime(gap);
    assertThat(updates.readValuesToList()).hasSize(records);
    // One batch of 50 tables of 3 chunks, embedded in groups of whole tables holding at least
    // embedding.batch.size (64) texts: 22 tables, 22 tables, the last 6.
    assertThat(records).isEqualTo(50);
    assertThat(model.calls).containsExactly(66, 66, 18);
  }

  @Test
  void aFullBatchIsWrittenWithoutWaitingForTheLingerAndReportedOnceWritten() {
    start(10);
    snapshot("sales.a", 4, "first");
    assertThat(model.calls).isEmpty();
    snapshot("sales.b", 4, "second");
    // Handed to the embedding thread at once; its updates go out once it is written, at the next tick at the latest.
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(model.calls).containsExactly(10));
    driver.advanceWallClockTime(LINGER);
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("a", "b");
    assertThat(storedChunks("sales.a")).isEqualTo(5);
    snapshot("sales.c", 4, "third");
    assertThat(updates.isEmpty()).isTrue();
    inputGoesQuiet();
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("c");
  }

  @Test
  void theNextFullBatchReportsThePreviousOneOnceItIsHandedOver() {
    start(10);
    snapshot("sales.a", 4, "first");
    snapshot("sales.b", 4, "second");
    snapshot("sales.c", 4, "third");
    snapshot("sales.d", 4, "fourth");
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("a", "b");
    inputGoesQuiet();
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("c", "d");
    assertThat(store.all()).hasSize(20);
    assertThat(indexer.timings().fullBatches()).isEqualTo(2);
  }

  @Test
  void theStreamThreadTakesInTheNextTablesWhileTheModelEmbedsAFullBatch() {
    start(10);
    model.gate = new java.util.concurrent.CountDownLatch(1);
    snapshot("sales.a", 4, "first");
    snapshot("sales.b", 4, "second");
    snapshot("sales.c", 4, "third");
    // The model still holds the full batch of a and b; c was chunked and diffed meanwhile.
    assertThat(model.finished).hasValue(0);
    assertThat(indexer.timings().prepared()).isEqualTo(3);
    assertThat(updates.isEmpty()).isTrue();
    model.gate.countDown();
    inputGoesQuiet();
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("a", "b", "c");
    assertThat(store.all()).hasSize(15);
    assertThat(indexer.timings().waitedNanos()).isPositive();
  }

  @Test
  void aChangeToATableInFlightIsDiffedAgainstWhatThatBatchWrote() {
    start(10);
    snapshot("sales.a", 4, "first");
    snapshot("sales.b", 4, "second");
    // The same table again while its batch is in flight: that batch is finished first, so nothing is new.
    snapshot("sales.a", 4, "first");
    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("a", "b");
    inputGoesQuiet();
    IndexUpdate again = updates.readValue();
    assertThat(again.getTableName()).isEqualTo("a");
    assertThat(again.getAdded() + again.getUpdated()).isZero();
    assertThat(again.getUnchanged()).isEqualTo(5);
    assertThat(model.calls).containsExactly(10);
  }

  @Test
  void aLaterSnapshotBeforeTheWriteReplacesTheEarlierOne() {
    start(256);
    snapshot("sales.orders", 3, "open or paid");
    snapshot("sales.orders", 5, "open, paid or shipped");
    inputGoesQuiet();

    List<IndexUpdate> all = updates.readValuesToList();
    assertThat(all).hasSize(1);
    assertThat(all.get(0).getAdded()).isEqualTo(6);
    // The earlier snapshot's texts were never embedded: only the later one's six chunks.
    assertThat(model.calls).containsExactly(6);
    assertThat(store.all().values()).anySatisfy(s -> assertThat(s.row().chunk().embedText()).contains("open, paid or shipped"))
        .noneSatisfy(s -> assertThat(s.row().chunk().embedText()).contains("open or paid"));

    // The next change is diffed against what the merged step wrote.
    snapshot("sales.orders", 5, "open, paid, shipped or returned");
    inputGoesQuiet();
    IndexUpdate next = updates.readValue();
    assertThat(next.getUpdated()).isEqualTo(1);
    assertThat(next.getAdded() + next.getRemoved()).isZero();
    assertThat(next.getEmbedded()).isEqualTo(1);
  }

  @Test
  void aTableThatCannotBeEmbeddedGoesToTheDlqAndTheRestOfItsBatchIsWritten() {
    start(256);
    snapshot("sales.a", 3, "fine");
    snapshot("sales.b", 3, "poison pill");
    snapshot("sales.c", 3, "also fine");
    inputGoesQuiet();

    assertThat(updates.readValuesToList()).extracting(IndexUpdate::getTableName).containsExactly("a", "c");
    var dead = dlq.readRecordsToList();
    assertThat(dead).hasSize(1);
    assertThat(new String(dead.get(0).headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
        .contains("sales.b could not be indexed").contains("the model refused a text");
    assertThat(new String(dead.get(0).headers().lastHeader(TopicCatalog.DLQ_SOURCE_HEADER).value(), StandardCharsets.UTF_8))
        .startsWith(TopicCatalog.defaults().tables().name());
    assertThat(storedChunks("sales.a")).isEqualTo(4);
    assertThat(storedChunks("sales.b")).isZero();
    assertThat(storedChunks("sales.c")).isEqualTo(4);

    // Its hashes were not recorded: the fixed table is indexed in full next time.
    snapshot("sales.b", 3, "cured");
    inputGoesQuiet();
    assertThat(updates.readValue().getAdded()).isEqualTo(4);
    assertThat(storedChunks("sales.b")).isEqualTo(4);
  }

  @Test
  void anUnchangedSnapshotWritesNothingAndStillReportsTheTable() {
    start(256);
    snapshot("sales.a", 3, "same");
    inputGoesQuiet();
    updates.readValuesToList();
    int callsBefore = model.calls.size();

    snapshot("sales.a", 3, "same");
    inputGoesQuiet();
    IndexUpdate u = updates.readValue();
    assertThat(u.getUnchanged()).isEqualTo(4);
    assertThat(u.getAdded() + u.getUpdated() + u.getRemoved() + u.getEmbedded()).isZero();
    assertThat(model.calls).hasSize(callsBefore);
  }

  @Test
  void aChunkTheHashesNeverKnewIsRemovedWhenItsTableIsWrittenAgain() {
    start(256);
    snapshot("sales.a", 3, "same");
    inputGoesQuiet();
    updates.readValuesToList();
    // As a batch whose commit a crash undid leaves it: in pgvector, written before the table's
    // last version, and in no hashes this task committed.
    Chunk kept = store.all().values().stream().map(s -> s.row().chunk()).filter(c -> c.table().equals("sales.a")).findFirst().orElseThrow();
    Chunk stray = new Chunk("stray-column-chunk", kept.databaseId(), kept.table(), ChunkKind.COLUMN, Optional.of("dropped_column"),
        kept.relatedTables(), List.of(), 1, "a dropped column", "sales.a.dropped_column text", "e", "c");
    store.write(List.of(new ChunkStore.Row(stray, new float[4], 1)), List.of(), "test-model");
    assertThat(storedChunks("sales.a")).isEqualTo(5);

    snapshot("sales.a", 3, "same");
    inputGoesQuiet();
    assertThat(updates.readValue().getUnchanged()).isEqualTo(4);
    assertThat(store.all()).doesNotContainKey("stray-column-chunk");
    assertThat(storedChunks("sales.a")).isEqualTo(4);
  }

  @Test
  void aDropBatchedWithOtherTablesRemovesItsChunks() {
    start(256);
    snapshot("sales.a", 3, "kept");
    snapshot("sales.b", 3, "dropped");
    inputGoesQuiet();
    updates.readValuesToList();

    tables.pipeInput(new TestRecord<>(CatalogSnapshots.key(DB, CatalogSnapshots.QualifiedName.ofModelName("sales.b")), null,
        Instant.ofEpochMilli(clock += 1_000)));
    snapshot("sales.c", 2, "new");
    inputGoesQuiet();
    List<IndexUpdate> all = updates.readValuesToList();
    assertThat(all).extracting(IndexUpdate::getTableName).containsExactly("b", "c");
    assertThat(all.get(0).getRemoved()).isEqualTo(4);
    assertThat(storedChunks("sales.b")).isZero();
    assertThat(storedChunks("sales.a")).isEqualTo(4);
    assertThat(storedChunks("sales.c")).isEqualTo(3);
  }

  @Test
  void batchingRefusesNonsenseNamingTheKey() {
    assertThatThrownBy(() -> new IndexerTopology.Batching(0, LINGER)).hasMessageContaining("indexer.batch.chunks");
    assertThatThrownBy(() -> new IndexerTopology.Batching(10, Duration.ZERO)).hasMessageContaining("indexer.batch.linger.ms");
  }
}
