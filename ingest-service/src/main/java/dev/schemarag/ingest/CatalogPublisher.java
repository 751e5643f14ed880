package dev.schemarag.ingest;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.events.catalog.DatabaseKey;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes what one audit row caused, atomically: its {@link DdlEvent} and the snapshots and
 * tombstones of the tables it touched go out in one Kafka transaction. The DDL topic is therefore
 * an exact record of what was delivered, and the event ids on its tail tell a restarted service
 * which rows Debezium replays were delivered before.
 */
final class CatalogPublisher implements AutoCloseable {

  /** A table's new state: a snapshot, or empty for a tombstone. */
  record TableUpdate(TableKey key, Optional<TableSnapshot> snapshot) {}

  private final TopicCatalog topics;
  private final Map<String, Object> kafka;
  private final Map<String, Object> producerConfig;
  private final Consumer<KafkaProducer<byte[], byte[]>> onNewProducer;
  /** Null after a producer was given up, until the next publish makes its successor. */
  private KafkaProducer<byte[], byte[]> producer;

  /** {@code onNewProducer} sees each producer made (the first, and any that replaces one given up), for its client meters. */
  CatalogPublisher(TopicCatalog topics, Map<String, Object> kafka, String transactionalId,
                   Consumer<KafkaProducer<byte[], byte[]>> onNewProducer) {
    this.topics = topics;
    this.kafka = Map.copyOf(kafka);
    Map<String, Object> p = new HashMap<>(kafka);
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    this.producerConfig = Map.copyOf(p);
    this.onNewProducer = onNewProducer;
    this.producer = newProducer();
  }

  private KafkaProducer<byte[], byte[]> newProducer() {
    KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
    try {
      // Fences a previous producer with the same id: its unfinished transaction is aborted.
      p.initTransactions();
    } catch (RuntimeException e) {
      p.close(Duration.ZERO);
      throw e;
    }
    onNewProducer.accept(p);
    return p;
  }

  synchronized void publish(Optional<DdlEvent> ddl, List<TableUpdate> tables) {
    if (producer == null) {
      producer = newProducer();
    }
    try {
      producer.beginTransaction();
      ddl.ifPresent(e -> send(topics.ddl(), new DatabaseKey(e.getDatabaseId()), e));
      for (TableUpdate u : tables) {
        send(topics.tables(), u.key(), u.snapshot().orElse(null));
      }
      producer.commitTransaction();
    } catch (RuntimeException e) {
      try {
        producer.abortTransaction();
      } catch (RuntimeException abortFailed) {
        // A commit that timed out (its outcome unknown until retried), a fenced or failed producer:
        // it is given up, and its successor, made by the next publish with the same transactional
        // id, aborts whatever it left open.
        e.addSuppressed(abortFailed);
        producer.close(Duration.ZERO);
        producer = null;
      }
      throw e;
    }
  }

  private <K, V> void send(Topic<K, V> topic, K key, V value) {
    byte[] k = topic.keySerde().serializer().serialize(topic.name(), key);
    byte[] v = value == null ? null : topic.valueSerde().serializer().serialize(topic.name(), value);
    producer.send(new ProducerRecord<>(topic.name(), k, v));
  }

  /**
   * The audit events delivered for {@code databaseId} (committed transactions only), from the tail
   * of each partition of the DDL topic: older ones count as delivered when the tail is not the whole topic.
   */
  DeliveredEvents deliveredEvents(String databaseId, int tail, int capacity) {
    Map<String, Object> c = new HashMap<>(kafka);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    Topic<DatabaseKey, DdlEvent> topic = topics.ddl();
    List<Long> ids = new java.util.ArrayList<>();
    boolean truncated = false;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic.name(), Duration.ofSeconds(30));
      List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
      consumer.assign(parts);
      Map<TopicPartition, Long> ends = consumer.endOffsets(parts);
      Map<TopicPartition, Long> begins = consumer.beginningOffsets(parts);
      for (TopicPartition tp : parts) {
        truncated |= ends.get(tp) - tail > begins.get(tp);
        consumer.seek(tp, Math.max(begins.get(tp), ends.get(tp) - tail));
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read the end of " + topic.name() + " within 30 s");
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.value() == null) {
            continue;
          }
          DdlEvent e = topic.valueSerde().deserializer().deserialize(r.topic(), r.value());
          if (e.getDatabaseId().equals(databaseId)) {
            ids.add(e.getEventId());
          }
        }
      }
    }
    return new DeliveredEvents(capacity, ids, truncated);
  }

  @Override
  public synchronized void close() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
    }
  }
}
