package dev.schemarag.cli;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.PooledConnections;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.indexer.IndexerService;
import dev.schemarag.ingest.IngestService;
import dev.schemarag.service.ServiceSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The live index in this process: the indexer and the ingest service on the given database and
 * broker, and a tail of {@code index.events} that hands every {@link IndexUpdate} from now on to a
 * listener.
 */
final class LivePipeline implements AutoCloseable {

  private final IndexerService indexer;
  private final IngestService ingest; // null: the indexer alone
  private final Thread tail;
  private final PooledConnections pool;
  private final AtomicBoolean running = new AtomicBoolean(true);

  private LivePipeline(IndexerService indexer, IngestService ingest, Thread tail, PooledConnections pool) {
    this.indexer = indexer;
    this.ingest = ingest;
    this.tail = tail;
    this.pool = pool;
  }

  static LivePipeline start(SchemaragConfig config, String dbUrl, String bootstrap, Consumer<IndexUpdate> listener) throws Exception {
    return start(config, dbUrl, bootstrap, listener, new SimpleMeterRegistry(), new SimpleMeterRegistry(), true);
  }

  /** The same, with the indexer's and the ingest service's meters in the given registries. */
  static LivePipeline start(SchemaragConfig config, String dbUrl, String bootstrap, Consumer<IndexUpdate> listener,
                            MeterRegistry indexerMeters, MeterRegistry ingestMeters) throws Exception {
    return start(config, dbUrl, bootstrap, listener, indexerMeters, ingestMeters, true);
  }

  /**
   * The indexer alone, without an ingest service: it indexes what the snapshot and doc topics
   * already hold (a re-index under a new {@code indexer.application.id}).
   */
  static LivePipeline startIndexer(SchemaragConfig config, String dbUrl, String bootstrap, Consumer<IndexUpdate> listener)
      throws Exception {
    return start(config, dbUrl, bootstrap, listener, new SimpleMeterRegistry(), new SimpleMeterRegistry(), false);
  }

  private static LivePipeline start(SchemaragConfig config, String dbUrl, String bootstrap, Consumer<IndexUpdate> listener,
                                    MeterRegistry indexerMeters, MeterRegistry ingestMeters, boolean withIngest) throws Exception {
    TopicCatalog topics = ServiceSettings.topics(config);
    AtomicBoolean running = new AtomicBoolean(true);
    KafkaConsumer<byte[], byte[]> consumer = tailFromNow(config, bootstrap, topics.indexEvents());
    LivePipeline[] self = new LivePipeline[1];
    Thread tail = new Thread(() -> {
      try (consumer) {
        while (self[0] == null || self[0].running.get()) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
            listener.accept(topics.indexEvents().valueSerde().deserializer().deserialize(r.topic(), r.value()));
          }
        }
      } catch (org.apache.kafka.common.errors.WakeupException e) {
        // stopping
      }
    }, "index-events-tail");
    tail.setDaemon(true);
    PooledConnections db = PooledConnections.of(dbUrl, config.get(dev.schemarag.core.config.ConfigKeys.DB_USER),
        config.get(dev.schemarag.core.config.ConfigKeys.DB_PASSWORD), 3, "indexer");
    IndexerService indexer = IndexerService.create(config, db, bootstrap, indexerMeters);
    IngestService ingest = withIngest ? new IngestService(IngestService.Settings.from(config, dbUrl, bootstrap), topics) : null;
    self[0] = new LivePipeline(indexer, ingest, tail, db);
    tail.start();
    try {
      indexer.start(Duration.ofMinutes(2));
      if (ingest != null) {
        ingest.start(ingestMeters);
      }
    } catch (Exception e) {
      self[0].close();
      throw e;
    }
    return self[0];
  }

  IndexerService indexer() {
    return indexer;
  }

  IngestService ingest() {
    return ingest;
  }

  /** The pool the indexer writes with. */
  PooledConnections pool() {
    return pool;
  }

  /**
   * What an initial index did.
   *
   * @param seconds from the pipeline's start until the last table was indexed
   * @param firstUpdateSeconds from the pipeline's start until the first table was indexed (start-up and snapshot)
   */
  record InitialIndex(int tables, long chunks, long embedded, double seconds, double firstUpdateSeconds) {}

  /**
   * Waits, with a progress bar, until every one of {@code tables} tables has had an index update;
   * {@code t0} (nanoTime) is when the pipeline was started.
   */
  static InitialIndex awaitTables(java.util.concurrent.BlockingQueue<IndexUpdate> updates, int tables, long t0) throws InterruptedException {
    java.util.Set<String> indexed = new java.util.HashSet<>();
    long chunks = 0;
    long embedded = 0;
    long first = 0;
    try (me.tongfei.progressbar.ProgressBar bar = new me.tongfei.progressbar.ProgressBarBuilder().setTaskName("initial index")
        .setInitialMax(tables).setUnit(" tables", 1).build()) {
      while (indexed.size() < tables) {
        IndexUpdate u = updates.poll(120, java.util.concurrent.TimeUnit.SECONDS);
        if (u == null) {
          throw new IllegalStateException("no index update for 120 s; indexed " + indexed.size() + " of " + tables + " tables");
        }
        if (first == 0) {
          first = System.nanoTime();
        }
        indexed.add(u.getSchemaName() + "." + u.getTableName());
        chunks += u.getAdded() + u.getUpdated();
        embedded += u.getEmbedded();
        bar.stepTo(indexed.size());
      }
    }
    return new InitialIndex(tables, chunks, embedded, (System.nanoTime() - t0) / 1e9, (first - t0) / 1e9);
  }

  /**
   * Waits until the indexer has the store's HNSW indexes, which it builds once the initial snapshot
   * is written; returns the seconds from {@code t0} (nanoTime), when the pipeline was started.
   */
  double awaitVectorIndexes(long t0, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!indexer.vectorIndexesReady()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the indexer had not built the HNSW indexes after " + timeout.toSeconds() + " s");
      }
      Thread.sleep(50);
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** The earliest timestamp of a record in the topic (0 when it is empty). */
  static long firstRecordTimeMs(SchemaragConfig config, String bootstrap, String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = readCommitted(config, bootstrap)) {
      List<TopicPartition> parts = fromBeginning(consumer, topic);
      Map<TopicPartition, Long> ends = consumer.endOffsets(parts);
      java.util.Set<TopicPartition> seen = new java.util.HashSet<>();
      long first = Long.MAX_VALUE;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (seen.size() < parts.stream().filter(p -> ends.get(p) > 0).count() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          TopicPartition tp = new TopicPartition(r.topic(), r.partition());
          if (seen.add(tp)) {
            first = Math.min(first, r.timestamp());
          }
        }
      }
      return first == Long.MAX_VALUE ? 0 : first;
    }
  }

  /** A consumer of this CLI's own (never committed) group that reads committed records only. */
  private static KafkaConsumer<byte[], byte[]> readCommitted(SchemaragConfig config, String bootstrap) {
    Map<String, Object> c = new HashMap<>(ServiceSettings.kafka(config, bootstrap));
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "schemarag-cli-" + UUID.randomUUID());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** Assigns every partition of the topic, each from its beginning; returns them. */
  private static List<TopicPartition> fromBeginning(KafkaConsumer<byte[], byte[]> consumer, String topic) {
    List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    return parts;
  }

  /** A consumer positioned at the current end of the topic: it sees only what comes from now on. */
  private static KafkaConsumer<byte[], byte[]> tailFromNow(SchemaragConfig config, String bootstrap, Topic<TableKey, IndexUpdate> topic) {
    KafkaConsumer<byte[], byte[]> consumer = readCommitted(config, bootstrap);
    List<TopicPartition> parts = consumer.partitionsFor(topic.name(), Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    consumer.assign(parts);
    consumer.seekToEnd(parts);
    parts.forEach(consumer::position);
    return consumer;
  }

  /** What a topic holds now, as a read_committed consumer sees it: its records and their first and last timestamps. */
  record TopicSpan(long records, long firstMs, long lastMs) {}

  /** Reads the whole topic once (transaction markers are not records). */
  static TopicSpan span(SchemaragConfig config, String bootstrap, String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = readCommitted(config, bootstrap)) {
      List<TopicPartition> parts = fromBeginning(consumer, topic);
      Map<TopicPartition, Long> ends = consumer.endOffsets(parts);
      long n = 0;
      long first = Long.MAX_VALUE;
      long last = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (parts.stream().anyMatch(p -> consumer.position(p) < ends.get(p)) && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          n++;
          first = Math.min(first, r.timestamp());
          last = Math.max(last, r.timestamp());
        }
      }
      return new TopicSpan(n, n == 0 ? 0 : first, last);
    }
  }

  /** Where the indexer's time went so far: chunking, embedding (cache lookups included), pgvector writes. */
  dev.schemarag.indexer.TableIndexer.Timings indexerTimings() {
    return indexer.timings();
  }

  @Override
  public void close() {
    running.set(false);
    if (ingest != null) {
      ingest.close();
    }
    indexer.close();
    pool.close();
    try {
      tail.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
