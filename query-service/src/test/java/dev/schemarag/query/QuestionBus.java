package dev.schemarag.query;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Asks the query service through the real broker and reads what it emitted, by query id (tests). */
final class QuestionBus {

  /** What a question led to: its answer or its failure, and its exam records. */
  record Outcome(Optional<QueryAnswered> answered, Optional<QueryFailed> failed) {
    QueryAnswered answer() {
      return answered.orElseThrow(() -> new AssertionError("expected an answer, got " + failed.orElse(null)));
    }

    QueryFailed failure() {
      return failed.orElseThrow(() -> new AssertionError("expected a failure, got " + answered.orElse(null)));
    }
  }

  private final String bootstrap;
  private final TopicCatalog topics;

  QuestionBus(String bootstrap, TopicCatalog topics) {
    this.bootstrap = bootstrap;
    this.topics = topics;
  }

  <K, V> void publish(Topic<K, V> topic, K key, V value) throws Exception {
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topic.name(), topic.keySerde().serializer().serialize(topic.name(), key),
          topic.valueSerde().serializer().serialize(topic.name(), value))).get();
    }
  }

  /** Publishes raw bytes, e.g. a record no consumer can decode. */
  void publishRaw(String topic, byte[] key, byte[] value) throws Exception {
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topic, key, value)).get();
    }
  }

  /** The records of a topic (a DLQ, say), once {@code done} holds for them or 60 s passed. */
  List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> records(String topic,
      Predicate<List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>>> done) {
    return TopicReads.readUntil(bootstrap, topic, done, Duration.ofSeconds(60));
  }

  /** Publishes the question and waits (up to 60 s) for its answer or failure. */
  Outcome ask(QuestionRequested q) throws Exception {
    publish(topics.requests(), new QueryKey(q.getQueryId()), q);
    String id = q.getQueryId();
    Topic<QueryKey, QueryAnswered> results = topics.results();
    Topic<QueryKey, QueryFailed> failures = topics.failures();
    List<Object> got = read(List.of(results.name(), failures.name()), (topic, bytes) -> topic.equals(results.name())
        ? results.valueSerde().deserializer().deserialize(topic, bytes) : failures.valueSerde().deserializer().deserialize(topic, bytes),
        l -> l.stream().anyMatch(o -> id.equals(queryId(o))));
    Optional<Object> mine = got.stream().filter(o -> id.equals(queryId(o))).findFirst();
    if (mine.isEmpty()) {
      throw new AssertionError("no answer or failure for " + id + " within 60 s");
    }
    return new Outcome(mine.filter(QueryAnswered.class::isInstance).map(QueryAnswered.class::cast),
        mine.filter(QueryFailed.class::isInstance).map(QueryFailed.class::cast));
  }

  /** The exam records of a question, once at least {@code atLeast} arrived. */
  List<ExamRecord> exam(String queryId, int atLeast) {
    Topic<QueryKey, ExamRecord> audit = topics.audit();
    List<Object> got = read(List.of(audit.name()), (topic, bytes) -> audit.valueSerde().deserializer().deserialize(topic, bytes),
        l -> l.stream().filter(o -> queryId.equals(queryId(o))).count() >= atLeast);
    return got.stream().filter(o -> queryId.equals(queryId(o))).map(ExamRecord.class::cast).toList();
  }

  private static String queryId(Object o) {
    return o instanceof QueryAnswered a ? a.getQueryId() : o instanceof QueryFailed f ? f.getQueryId()
        : o instanceof ExamRecord e ? e.getQueryId() : null;
  }

  private interface Decoder {
    Object decode(String topic, byte[] bytes);
  }

  private List<Object> read(List<String> names, Decoder decoder, Predicate<List<Object>> done) {
    List<Object> got = new ArrayList<>();
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(names);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!done.test(got) && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(r -> got.add(decoder.decode(r.topic(), r.value())));
      }
    }
    return got;
  }
}
