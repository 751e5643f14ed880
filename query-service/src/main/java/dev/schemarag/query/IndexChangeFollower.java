package dev.schemarag.query;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.events.catalog.DatabaseKey;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.index.IndexUpdate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the indexer's {@code index.events} and tells the query side which table changed, so its
 * loaded index is updated for that table, not rebuilt, as soon as the event arrives. It also
 * follows the captured DDL ({@code ddl} topic, GRANT and REVOKE included) so that the privileges
 * cached for principals' roles are read again. Every query-service instance must see every change, so it reads all
 * partitions without a consumer group, from the end: what happened before it started is already
 * in the store and the catalog it loads from. A record it cannot decode goes to its topic's
 * {@code .dlq} with the reason (from each instance that read it), and every loaded index (or every
 * role's privileges) is read again.
 */
final class IndexChangeFollower implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IndexChangeFollower.class);

  private final Topic<TableKey, IndexUpdate> topic;
  private final Topic<DatabaseKey, DdlEvent> ddl;
  private final Map<String, Object> kafka;
  private final SchemaIndexCache indexes;
  private final Consumer<String> ddlChanged;
  private final CountDownLatch assigned = new CountDownLatch(1);
  private volatile KafkaConsumer<byte[], byte[]> consumer;
  private volatile KafkaProducer<byte[], byte[]> producer;
  private volatile QueryMetrics metrics;
  private Thread thread;

  /**
   * @param ddl the captured DDL, whose every event may change a role's privileges
   * @param indexes told of every table whose update added, changed or removed chunks
   * @param ddlChanged told the database id of every captured DDL event
   */
  IndexChangeFollower(Topic<TableKey, IndexUpdate> topic, Topic<DatabaseKey, DdlEvent> ddl, Map<String, Object> kafka,
                      SchemaIndexCache indexes, Consumer<String> ddlChanged) {
    this.topic = topic;
    this.ddl = ddl;
    this.kafka = Map.copyOf(kafka);
    this.indexes = indexes;
    this.ddlChanged = ddlChanged;
  }

  /** Starts following; returns once positioned at the end of the topic, so no later change is missed. */
  synchronized void start(QueryMetrics metrics) {
    if (thread != null) {
      return;
    }
    this.metrics = metrics;
    Map<String, Object> p = new HashMap<>(kafka);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    Map<String, Object> c = new HashMap<>(kafka);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    thread = new Thread(this::run, "index-change-follower");
    thread.setDaemon(true);
    thread.start();
    try {
      if (!assigned.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("could not read the partitions of " + topic.name() + " within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try (KafkaConsumer<byte[], byte[]> c = consumer) {
      List<TopicPartition> partitions = new java.util.ArrayList<>(c.partitionsFor(topic.name(), Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList());
      if (partitions.isEmpty()) {
        LOG.error("topic {} does not exist: loaded indexes will not be refreshed when the schema changes", topic.name());
        return;
      }
      partitions.addAll(c.partitionsFor(ddl.name(), Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList());
      c.assign(partitions);
      c.seekToEnd(partitions);
      partitions.forEach(c::position);
      assigned.countDown();
      while (true) {
        java.util.Map<String, java.util.Set<String>> changed = new java.util.LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
          if (r.topic().equals(ddl.name())) {
            ddlEvent(r);
            continue;
          }
          IndexUpdate u;
          try {
            u = topic.valueSerde().deserializer().deserialize(r.topic(), r.value());
            if (u == null) {
              throw new SerializationException("an index update without a value (tombstone)");
            }
          } catch (SerializationException e) {
            // Which database changed is unknown: every loaded index is rebuilt rather than one left stale.
            LOG.warn("undecodable index update at {}/{}@{}; reloading every index: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            deadLetter(r, "undecodable index update: " + e.getMessage());
            indexes.invalidateAll();
            continue;
          }
          if (u.getAdded() + u.getUpdated() + u.getRemoved() > 0) {
            changed.computeIfAbsent(u.getDatabaseId(), db -> new java.util.LinkedHashSet<>())
                .add(PgCatalogReader.modelName(u.getSchemaName(), u.getTableName()));
          }
        }
        // One update per database for what the poll brought: a migration's tables are applied together.
        changed.forEach(indexes::tablesChanged);
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      LOG.error("stopped following index changes; loaded indexes are no longer refreshed: {}", e.getMessage(), e);
    } finally {
      assigned.countDown();
    }
  }

  private void ddlEvent(ConsumerRecord<byte[], byte[]> r) {
    if (r.value() == null) {
      return;
    }
    try {
      ddlChanged.accept(ddl.valueSerde().deserializer().deserialize(r.topic(), r.value()).getDatabaseId());
    } catch (SerializationException e) {
      LOG.warn("undecodable DDL event at {}/{}@{}; reading every role's privileges again: {}", r.topic(), r.partition(), r.offset(),
          e.getMessage());
      deadLetter(r, "undecodable DDL event: " + e.getMessage());
      ddlChanged.accept(null);
    }
  }

  /** To the record's topic's {@code .dlq}, with the reason and where it came from. */
  private void deadLetter(ConsumerRecord<byte[], byte[]> r, String reason) {
    ProducerRecord<byte[], byte[]> out = TopicCatalog.deadLetter(r, reason);
    String dlq = out.topic();
    producer.send(out, (md, e) -> {
      if (e != null) {
        LOG.error("undecodable record {}/{}@{} could not be dead-lettered: {}", r.topic(), r.partition(), r.offset(), e.toString());
      } else {
        metrics.deadLettered(dlq);
      }
    });
  }

  @Override
  public synchronized void close() {
    if (thread == null) {
      return;
    }
    consumer.wakeup();
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    thread = null;
    producer.close(Duration.ofSeconds(10));
  }
}
