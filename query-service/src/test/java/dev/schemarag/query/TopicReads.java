package dev.schemarag.query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reading what the services published, committed records only (tests). */
final class TopicReads {
  private TopicReads() {}

  /** Reads a topic from the start until {@code done} holds for what was read, or {@code within} passed. */
  static List<ConsumerRecord<byte[], byte[]>> readUntil(String bootstrap, String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> done,
                                                        Duration within) {
    List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(topic));
      long deadline = System.nanoTime() + within.toNanos();
      while (!done.test(got) && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(got::add);
      }
    }
    return got;
  }

  /** Every committed record of a one-partition topic up to its current end. */
  static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic) {
    List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition tp = new TopicPartition(topic, 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long end = c.endOffsets(List.of(tp)).get(tp);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (c.position(tp) < end && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(got::add);
      }
    }
    return got;
  }
}
