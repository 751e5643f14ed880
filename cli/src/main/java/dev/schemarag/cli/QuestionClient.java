package dev.schemarag.cli;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Asks questions the way any client of the query service does: publishes a
 * {@code QuestionRequested} and waits for the answer or failure carrying its query_id. It reads the
 * results and failures topics from where they ended when it was created, so nothing of its own is
 * missed and nothing older is read. One question at a time.
 */
final class QuestionClient implements AutoCloseable {

  /** The answer or the failure, and the time from publishing the request until it arrived. */
  record Outcome(Optional<QueryAnswered> answered, Optional<QueryFailed> failed, long roundTripMs) {}

  private final TopicCatalog topics;
  private final KafkaProducer<byte[], byte[]> producer;
  private final KafkaConsumer<byte[], byte[]> consumer;

  QuestionClient(TopicCatalog topics, Map<String, Object> kafka) {
    this.topics = topics;
    Map<String, Object> p = new HashMap<>(kafka);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    consumer = outcomesFromNow(topics, kafka);
  }

  /**
   * A consumer (no group, read_committed) of every partition of the results and failures topics,
   * positioned at their current ends: it sees the outcomes published from now on.
   */
  static KafkaConsumer<byte[], byte[]> outcomesFromNow(TopicCatalog topics, Map<String, Object> kafka) {
    Map<String, Object> c = new HashMap<>(kafka);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = Stream.of(topics.results().name(), topics.failures().name())
        .flatMap(t -> consumer.partitionsFor(t, Duration.ofSeconds(30)).stream())
        .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
    if (parts.isEmpty()) {
      consumer.close();
      throw new IllegalArgumentException("the broker has no topic " + topics.results().name() + ": is the query service's stack running?");
    }
    consumer.assign(parts);
    consumer.seekToEnd(parts);
    parts.forEach(consumer::position);
    return consumer;
  }

  Outcome ask(QuestionRequested q, Duration timeout) throws Exception {
    var requests = topics.requests();
    long t0 = System.nanoTime();
    producer.send(new ProducerRecord<>(requests.name(), requests.keySerde().serializer().serialize(requests.name(), new QueryKey(q.getQueryId())),
        requests.valueSerde().serializer().serialize(requests.name(), q))).get();
    long deadline = t0 + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
        if (r.topic().equals(topics.results().name())) {
          QueryAnswered a = topics.results().valueSerde().deserializer().deserialize(r.topic(), r.value());
          if (a != null && a.getQueryId().equals(q.getQueryId())) {
            return new Outcome(Optional.of(a), Optional.empty(), (System.nanoTime() - t0) / 1_000_000);
          }
        } else {
          QueryFailed f = topics.failures().valueSerde().deserializer().deserialize(r.topic(), r.value());
          if (f != null && f.getQueryId().equals(q.getQueryId())) {
            return new Outcome(Optional.empty(), Optional.of(f), (System.nanoTime() - t0) / 1_000_000);
          }
        }
      }
    }
    throw new java.util.concurrent.TimeoutException("no answer or failure for query " + q.getQueryId() + " within " + timeout.toSeconds()
        + " s: is a query service consuming " + requests.name() + "?");
  }

  /**
   * Publishes every question at once, then collects their outcomes by query_id; each outcome's time
   * is from its own publication. Questions without an outcome by the deadline are absent.
   */
  Map<String, Outcome> burst(List<QuestionRequested> questions, Duration timeout) throws Exception {
    var requests = topics.requests();
    Map<String, Long> sentAt = new HashMap<>();
    List<java.util.concurrent.Future<?>> sends = new java.util.ArrayList<>();
    for (QuestionRequested q : questions) {
      sentAt.put(q.getQueryId(), System.nanoTime());
      sends.add(producer.send(new ProducerRecord<>(requests.name(), requests.keySerde().serializer().serialize(requests.name(),
          new QueryKey(q.getQueryId())), requests.valueSerde().serializer().serialize(requests.name(), q))));
    }
    for (var f : sends) {
      f.get();
    }
    Map<String, Outcome> out = new HashMap<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (out.size() < questions.size() && System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
        long now = System.nanoTime();
        if (r.topic().equals(topics.results().name())) {
          QueryAnswered a = topics.results().valueSerde().deserializer().deserialize(r.topic(), r.value());
          Long t0 = a == null ? null : sentAt.get(a.getQueryId());
          if (t0 != null) {
            out.putIfAbsent(a.getQueryId(), new Outcome(Optional.of(a), Optional.empty(), (now - t0) / 1_000_000));
          }
        } else {
          QueryFailed f = topics.failures().valueSerde().deserializer().deserialize(r.topic(), r.value());
          Long t0 = f == null ? null : sentAt.get(f.getQueryId());
          if (t0 != null) {
            out.putIfAbsent(f.getQueryId(), new Outcome(Optional.empty(), Optional.of(f), (now - t0) / 1_000_000));
          }
        }
      }
    }
    return out;
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
    consumer.close(Duration.ofSeconds(5));
  }
}
