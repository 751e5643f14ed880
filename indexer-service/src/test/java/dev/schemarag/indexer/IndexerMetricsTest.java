package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.events.index.IndexUpdate;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class IndexerMetricsTest {

  private final TopicCatalog topics = new TopicCatalog(TopicSettings.DEFAULT, new SerdeFactory(SerdeSettings.DEFAULT));
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final IndexerMetrics metrics = new IndexerMetrics(registry, topics);

  private static IndexUpdate update(String db, String table, int added, int updated, int removed, int embedded, Long lagMs) {
    long now = System.currentTimeMillis();
    return new IndexUpdate(db, "sales", table, added, updated, removed, 0, "all-minilm-l6-v2", lagMs == null ? null : now - lagMs, now,
        embedded, lagMs);
  }

  @Test
  void indexUpdatesCountChunksAndLagPerDatabaseAndAreSerializedUnchanged() {
    var events = topics.indexEvents();
    Serializer<IndexUpdate> plain = events.valueSerde().serializer();
    Serializer<IndexUpdate> observed = metrics.observingUpdates(plain);
    IndexUpdate first = update("erp", "orders", 3, 0, 0, 3, 120L);
    assertThat(observed.serialize(events.name(), new RecordHeaders(), first)).isEqualTo(plain.serialize(events.name(), first));
    observed.serialize(events.name(), new RecordHeaders(), update("erp", "customers", 0, 1, 2, 1, 480L));
    observed.serialize(events.name(), new RecordHeaders(), update("crm", "leads", 5, 0, 0, 5, null));

    assertThat(registry.get(IndexerMetrics.INDEX_UPDATES).tag("database", "erp").counter().count()).isEqualTo(2);
    assertThat(registry.get(IndexerMetrics.CHUNKS_EMBEDDED).tag("database", "erp").counter().count()).isEqualTo(4);
    assertThat(registry.get(IndexerMetrics.CHUNKS_WRITTEN).tag("database", "erp").counter().count()).isEqualTo(4);
    assertThat(registry.get(IndexerMetrics.CHUNKS_REMOVED).tag("database", "erp").counter().count()).isEqualTo(2);
    assertThat(registry.get(IndexerMetrics.CHUNKS_EMBEDDED).tag("database", "crm").counter().count()).isEqualTo(5);
    Timer lag = registry.get(IndexerMetrics.INDEX_LAG).tag("database", "erp").timer();
    assertThat(lag.count()).isEqualTo(2);
    assertThat(lag.max(TimeUnit.MILLISECONDS)).isEqualTo(480);
    // An update without an event time has no lag to record.
    assertThat(registry.find(IndexerMetrics.INDEX_LAG).tag("database", "crm").timer()).isNull();
  }

  @Test
  void deadLettersAreCountedByTopicFromZero() {
    String tablesDlq = topics.dlq(topics.tables()).name();
    String docsDlq = topics.dlq(topics.docs()).name();
    assertThat(registry.get(IndexerMetrics.DLQ_RECORDS).tag("topic", tablesDlq).counter().count()).isZero();
    assertThat(registry.get(IndexerMetrics.DLQ_RECORDS).tag("topic", docsDlq).counter().count()).isZero();

    Serializer<byte[]> dlq = metrics.countingDeadLetters(new ByteArraySerializer());
    byte[] poison = "not avro".getBytes(StandardCharsets.UTF_8);
    assertThat(dlq.serialize(tablesDlq, new RecordHeaders(), poison)).isEqualTo(poison);
    dlq.serialize(tablesDlq, new RecordHeaders(), null);
    assertThat(registry.get(IndexerMetrics.DLQ_RECORDS).tag("topic", tablesDlq).counter().count()).isEqualTo(2);
    assertThat(registry.get(IndexerMetrics.DLQ_RECORDS).tag("topic", docsDlq).counter().count()).isZero();
  }

  @Test
  void cacheHitRatioIsHitsOverEmbeddingsAskedFor() {
    CachingEmbedder embedder = new CachingEmbedder(Langchain4jEmbedder.create("all-minilm-l6-v2-q", null, null, 8),
        new InMemoryEmbeddingCache());
    metrics.embeddings(embedder);
    assertThat(registry.get(IndexerMetrics.CACHE_HIT_RATIO).gauge().value()).isNaN();

    embedder.embedAll(List.of("orders: one row per customer order", "customers: who buys"));
    embedder.embedAll(List.of("orders: one row per customer order", "invoices: what customers owe"));

    assertThat(registry.get(IndexerMetrics.CACHE_HITS).functionCounter().count()).isEqualTo(1);
    assertThat(registry.get(IndexerMetrics.COMPUTED).functionCounter().count()).isEqualTo(3);
    assertThat(registry.get(IndexerMetrics.CACHE_HIT_RATIO).gauge().value()).isEqualTo(0.25);
  }
}
