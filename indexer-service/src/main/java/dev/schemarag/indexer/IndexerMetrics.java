package dev.schemarag.indexer;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.service.ops.ServiceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The indexer's own meters:
 * <ul>
 *   <li>{@code schemarag.index.lag} (database): from the change's event time (DDL commit, doc edit) to the table indexed;</li>
 *   <li>{@code schemarag.index.updates}, {@code schemarag.index.chunks.embedded}, {@code schemarag.index.chunks.written},
 *       {@code schemarag.index.chunks.removed} (database);</li>
 *   <li>{@code schemarag.embedding.cache.hits}, {@code schemarag.embedding.computed} and their
 *       {@code schemarag.embedding.cache.hit.ratio};</li>
 *   <li>{@code schemarag.dlq.records} (topic).</li>
 * </ul>
 * Index updates and dead letters are counted as they reach their sinks (see {@link #observing}),
 * so the topology's processors need no metrics code.
 */
final class IndexerMetrics {

  static final String INDEX_LAG = "schemarag.index.lag";
  static final String INDEX_UPDATES = "schemarag.index.updates";
  static final String CHUNKS_EMBEDDED = "schemarag.index.chunks.embedded";
  static final String CHUNKS_WRITTEN = "schemarag.index.chunks.written";
  static final String CHUNKS_REMOVED = "schemarag.index.chunks.removed";
  static final String CACHE_HITS = "schemarag.embedding.cache.hits";
  static final String COMPUTED = "schemarag.embedding.computed";
  static final String CACHE_HIT_RATIO = "schemarag.embedding.cache.hit.ratio";
  static final String DLQ_RECORDS = "schemarag.dlq.records";

  private final MeterRegistry registry;

  IndexerMetrics(MeterRegistry registry, TopicCatalog topics) {
    this.registry = registry;
    // Counted from 0, so the series exist before the first dead letter.
    dlq(topics.dlq(topics.tables()).name());
    dlq(topics.dlq(topics.docs()).name());
  }

  /** Cache hits and model computations of the indexer's embedder, read when scraped. */
  void embeddings(CachingEmbedder embedder) {
    FunctionCounter.builder(CACHE_HITS, embedder, CachingEmbedder::cacheHits)
        .description("chunk texts whose embedding came from the cache").register(registry);
    FunctionCounter.builder(COMPUTED, embedder, CachingEmbedder::computed)
        .description("chunk texts the model embedded (cache misses)").register(registry);
    Gauge.builder(CACHE_HIT_RATIO, embedder, IndexerMetrics::hitRatio)
        .description("cache hits / embeddings asked for, since start (NaN before the first)").register(registry);
  }

  static double hitRatio(CachingEmbedder e) {
    long asked = e.cacheHits() + e.computed();
    return asked == 0 ? Double.NaN : (double) e.cacheHits() / asked;
  }

  void indexed(IndexUpdate u) {
    String db = u.getDatabaseId();
    Counter.builder(INDEX_UPDATES).description("tables indexed (one per index update event)").tag("database", db)
        .register(registry).increment();
    Counter.builder(CHUNKS_EMBEDDED).description("chunks the model embedded (new or changed text; cache hits excluded)")
        .tag("database", db).register(registry).increment(u.getEmbedded());
    Counter.builder(CHUNKS_WRITTEN).description("chunks added or updated in pgvector").tag("database", db)
        .register(registry).increment(u.getAdded() + u.getUpdated());
    Counter.builder(CHUNKS_REMOVED).description("chunks removed from pgvector").tag("database", db)
        .register(registry).increment(u.getRemoved());
    if (u.getLagMs() != null) {
      Timer.builder(INDEX_LAG).description("from a change's event time (DDL commit, doc edit) to its table indexed")
          .publishPercentileHistogram().minimumExpectedValue(ServiceMetrics.MIN_LATENCY).maximumExpectedValue(ServiceMetrics.MAX_LATENCY)
          .tag("database", db).register(registry).record(Duration.ofMillis(u.getLagMs()));
    }
  }

  private Counter dlq(String topic) {
    return Counter.builder(DLQ_RECORDS).description("records sent to a dead-letter topic, by that topic").tag("topic", topic)
        .register(registry);
  }

  /** The sink serializer of index updates, counting each update it writes. */
  Serializer<IndexUpdate> observingUpdates(Serializer<IndexUpdate> delegate) {
    return observing(delegate, (topic, u) -> {
      if (u != null) {
        indexed(u);
      }
    });
  }

  /** The sink serializer of a dead-letter topic, counting each record it writes. */
  Serializer<byte[]> countingDeadLetters(Serializer<byte[]> delegate) {
    return observing(delegate, (topic, value) -> dlq(topic).increment());
  }

  /**
   * A serializer that shows each value to {@code observer} before serializing it. A sink
   * serializes every record it sends exactly once, so this sees what the topology emits.
   */
  static <T> Serializer<T> observing(Serializer<T> delegate, java.util.function.BiConsumer<String, T> observer) {
    return new Serializer<>() {
      @Override
      public void configure(Map<String, ?> configs, boolean isKey) {
        delegate.configure(configs, isKey);
      }

      @Override
      public byte[] serialize(String topic, T data) {
        observer.accept(topic, data);
        return delegate.serialize(topic, data);
      }

      @Override
      public byte[] serialize(String topic, Headers headers, T data) {
        observer.accept(topic, data);
        return delegate.serialize(topic, headers, data);
      }

      @Override
      public void close() {
        delegate.close();
      }
    };
  }
}
