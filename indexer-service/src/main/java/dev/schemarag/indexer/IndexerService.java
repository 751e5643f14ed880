package dev.schemarag.indexer;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgEmbeddingCache;
import dev.schemarag.service.ServiceSettings;
import dev.schemarag.service.ops.ReadinessChecks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lifecycle of the indexer: builds the embedder and the pgvector store, runs the topology of
 * {@link IndexerTopology} with exactly-once processing, and stops it. A failing stream thread
 * (the index unreachable) is replaced and resumes from its last commit.
 */
public final class IndexerService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IndexerService.class);

  private final KafkaStreams streams;
  private final KafkaStreamsMetrics streamsMetrics;
  private final TableIndexer indexer;
  private final Disruptions disruptions;
  private final VectorIndexBuilder vectorIndexes;

  private IndexerService(KafkaStreams streams, KafkaStreamsMetrics streamsMetrics, TableIndexer indexer, Disruptions disruptions,
                         VectorIndexBuilder vectorIndexes) {
    this.streams = streams;
    this.streamsMetrics = streamsMetrics;
    this.indexer = indexer;
    this.disruptions = disruptions;
    this.vectorIndexes = vectorIndexes;
  }

  /**
   * What interrupted the indexing since start: rebalances once running (a batch that outlasted
   * {@code max.poll.interval.ms} makes one) and stream threads replaced after a failure (an aborted
   * transaction, an unreachable store).
   */
  static final class Disruptions {
    private final java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong rebalances = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong threadFailures = new java.util.concurrent.atomic.AtomicLong();

    void changed(KafkaStreams.State to) {
      if (to == KafkaStreams.State.RUNNING) {
        ran.set(true);
      } else if (to == KafkaStreams.State.REBALANCING && ran.get()) {
        rebalances.incrementAndGet();
      }
    }
  }

  /** Streams properties: ours, then the user's {@code streams.*} keys (prefix stripped), which win. */
  static Properties streamsProperties(SchemaragConfig config, String bootstrapServers) {
    Properties p = new Properties();
    p.putAll(ServiceSettings.kafka(config, bootstrapServers));
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.get(ConfigKeys.INDEXER_APP_ID));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    // The main consumer's group membership: how soon a killed instance's tasks go to the others. A
    // user's kafka.* key (already in p) wins, and so do streams.* keys.
    ServiceSettings.groupMembership(config).forEach((k, v) -> {
      if (!p.containsKey(k)) {
        p.put(StreamsConfig.mainConsumerPrefix(k), v);
      }
    });
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 50);
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, config.getInt(ConfigKeys.TOPICS_REPLICATION));
    p.put(StreamsConfig.STATE_DIR_CONFIG, config.optional(ConfigKeys.INDEXER_STATE_DIR)
        .orElse(Path.of(System.getProperty("java.io.tmpdir"), "schemarag-indexer").toString()));
    p.put("consumer.auto.offset.reset", "earliest");
    // An idle stream thread waits in poll this long at most: it must come out to flush a pending
    // batch after its linger, or a single change would wait up to the default 100 ms more.
    p.put(StreamsConfig.POLL_MS_CONFIG, Math.min(100L, IndexerTopology.Batching.from(config).linger().toMillis()));
    // One batch embeds up to indexer.batch.chunks chunks inside a transaction: on a busy machine
    // that can outlast Streams' 10 s default, and the broker would abort the transaction.
    p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 60_000);
    p.putAll(config.withPrefix("streams."));
    return p;
  }

  /** With meters nobody reads; see {@link #create(SchemaragConfig, ConnectionSource, String, MeterRegistry)}. */
  public static IndexerService create(SchemaragConfig config, ConnectionSource db, String bootstrapServers) throws SQLException {
    return create(config, db, bootstrapServers, new SimpleMeterRegistry());
  }

  /** The indexer with its Kafka Streams, embedding cache, index and dead-letter meters in {@code registry}. */
  public static IndexerService create(SchemaragConfig config, ConnectionSource db, String bootstrapServers, MeterRegistry registry)
      throws SQLException {
    VectorIndexBuilder.Settings vectorIndexSettings = VectorIndexBuilder.Settings.from(config);
    Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config);
    PgChunkStore store = new PgChunkStore(db);
    store.ensureSchema(embedder.dimension());
    CachingEmbedder cached = new CachingEmbedder(embedder, new PgEmbeddingCache(db));
    IndexSync sync = new IndexSync(store, cached, config.getInt(ConfigKeys.EMBEDDING_BATCH));
    TopicCatalog topics = ServiceSettings.topics(config);
    IndexerMetrics metrics = new IndexerMetrics(registry, topics);
    metrics.embeddings(cached);
    TableIndexer indexer = new TableIndexer(sync);
    KafkaStreams streams = new KafkaStreams(IndexerTopology.build(topics, indexer, IndexerTopology.Batching.from(config), metrics),
        streamsProperties(config, bootstrapServers));
    Disruptions disruptions = new Disruptions();
    streams.setStateListener((to, from) -> disruptions.changed(to));
    streams.setUncaughtExceptionHandler(e -> {
      disruptions.threadFailures.incrementAndGet();
      LOG.error("indexer stream thread failed, replacing it: {}", e.getMessage());
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
    streamsMetrics.bindTo(registry);
    return new IndexerService(streams, streamsMetrics, indexer, disruptions, new VectorIndexBuilder(store, indexer::idle, vectorIndexSettings));
  }

  /** Starts and waits until the streams are running. */
  public void start(Duration timeout) throws InterruptedException {
    streams.start();
    vectorIndexes.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (streams.state() != KafkaStreams.State.RUNNING) {
      if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
        throw new IllegalStateException("the indexer stopped while starting: " + streams.state());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the indexer did not reach RUNNING within " + timeout.toSeconds() + " s (" + streams.state() + ")");
      }
      Thread.sleep(20);
    }
  }

  /** Where the indexer's time went since start: embedding (cache lookups included) and pgvector writes. */
  public TableIndexer.Timings timings() {
    return indexer.timings();
  }

  /** The store's HNSW indexes exist (found at a check, or built once the initial snapshot was written). */
  public boolean vectorIndexesReady() {
    return vectorIndexes.done();
  }

  /** Rebalances since the streams first ran (none while one instance indexes alone). */
  public long rebalances() {
    return disruptions.rebalances.get();
  }

  /** Stream threads that failed and were replaced since start. */
  public long threadFailures() {
    return disruptions.threadFailures.get();
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /** Empty when the streams run with their tasks assigned; else their state (the readiness check "partitions"). */
  public Optional<String> notReady() {
    try {
      return ReadinessChecks.streamsRunning(streams).problem();
    } catch (Exception e) {
      return Optional.of(e.getMessage());
    }
  }

  @Override
  public void close() {
    vectorIndexes.close();
    // Leave the group: a restarted indexer then gets its partitions at once, not after the session timeout.
    streams.close(new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(20)));
    streamsMetrics.close();
  }
}
