package dev.schemarag.query;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 * The query service's Kafka side: {@code workers} threads, each a consumer in one group and a
 * transactional producer. Per request: decode (undecodable -> DLQ with the reason), look the
 * query_id up in the ledger (answered before -> not answered again), else answer, store, then emit
 * the answer or failure plus the exam records and commit the request's offset in one transaction.
 * Ordering per query_id follows from partitioning by key.
 */
public final class QueryService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
  static final String ERROR_HEADER = TopicCatalog.DLQ_REASON_HEADER;
  private static final Duration LEDGER_RETRY = Duration.ofSeconds(2);

  private final TopicCatalog topics;
  private final QuestionHandler handler;
  private final AnswerLedger ledger;
  private final Map<String, Object> kafka;
  private final String groupId;
  private final Optional<IndexChangeFollower> follower;
  private final List<Thread> threads = new ArrayList<>();
  private final List<KafkaConsumer<byte[], byte[]>> consumers = new ArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Resources the service owns (connection pools), closed after the workers stop. */
  private final List<AutoCloseable> owned;
  private volatile CountDownLatch stopped;
  private volatile int workerCount;
  /** Per worker: whether the group has given it its partitions (possibly none) since it joined. Read by health probes. */
  private final List<AtomicBoolean> assigned = new CopyOnWriteArrayList<>();
  private final List<KafkaClientMetrics> clientMetrics = new ArrayList<>();
  private volatile QueryMetrics metrics;

  QueryService(TopicCatalog topics, QuestionHandler handler, AnswerLedger ledger, Map<String, Object> kafka, String groupId,
               Optional<IndexChangeFollower> follower, List<AutoCloseable> owned) {
    this.owned = List.copyOf(owned);
    this.topics = topics;
    this.handler = handler;
    this.ledger = ledger;
    this.kafka = Map.copyOf(kafka);
    this.groupId = groupId;
    this.follower = follower;
  }

  /** The loaded indexes (diagnostics and tests: full loads, table updates). */
  SchemaIndexCache indexes() {
    return handler.indexes();
  }

  /** Starts with meters nobody reads; see {@link #start(int, MeterRegistry)}. */
  public synchronized void start(int workers) {
    start(workers, new SimpleMeterRegistry());
  }

  /** Starts {@code workers} workers; their Kafka clients and the questions they answer are measured in {@code registry}. */
  public synchronized void start(int workers, MeterRegistry registry) {
    if (workers < 1) {
      throw new IllegalArgumentException("query.workers must be at least 1, was " + workers);
    }
    if (closed.get()) {
      throw new IllegalStateException("the query service was closed; create a new one");
    }
    if (!running.compareAndSet(false, true)) {
      return;
    }
    // Following index changes first: a change made while the workers start still refreshes the index.
    follower.ifPresent(IndexChangeFollower::start);
    metrics = new QueryMetrics(registry, topics.dlq(topics.requests()).name());
    workerCount = workers;
    stopped = new CountDownLatch(workers);
    for (int i = 0; i < workers; i++) {
      Map<String, Object> c = new HashMap<>(kafka);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
      c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
      KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      Map<String, Object> p = new HashMap<>(kafka);
      p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, groupId + "-" + UUID.randomUUID());
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
      KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
      producer.initTransactions();
      consumers.add(consumer);
      for (KafkaClientMetrics m : List.of(new KafkaClientMetrics(consumer), new KafkaClientMetrics(producer))) {
        m.bindTo(registry);
        clientMetrics.add(m);
      }
      AtomicBoolean hasPartitions = new AtomicBoolean();
      assigned.add(hasPartitions);
      Thread t = new Thread(() -> loop(consumer, producer, hasPartitions), "query-worker-" + i);
      threads.add(t);
      t.start();
    }
  }

  private void loop(KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer, AtomicBoolean hasPartitions) {
    try (consumer; producer) {
      consumer.subscribe(List.of(topics.requests().name()), new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
          // An incremental revoke: the worker stays in the group and keeps the rest.
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
          hasPartitions.set(true);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
          hasPartitions.set(false);
        }
      });
      while (running.get()) {
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
          if (!process(rec, consumer, producer)) {
            // Not processed (ledger unreachable): read it again after a pause, nothing is lost.
            consumer.seek(new TopicPartition(rec.topic(), rec.partition()), rec.offset());
            sleepQuietly(LEDGER_RETRY);
            break;
          }
        }
      }
    } catch (WakeupException e) {
      // stopping
    } catch (RuntimeException e) {
      LOG.error("query worker stopped: {}", e.getMessage(), e);
    } finally {
      stopped.countDown();
    }
  }

  /** @return false when the record must be read again */
  private boolean process(ConsumerRecord<byte[], byte[]> rec, KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer) {
    Topic<QueryKey, QuestionRequested> in = topics.requests();
    List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
    String answeredId = null;
    try {
      QuestionRequested q = in.valueSerde().deserializer().deserialize(rec.topic(), rec.value());
      if (q == null) {
        throw new SerializationException("a request without a value (tombstone)");
      }
      Optional<AnswerLedger.Entry> before = ledger.find(q.getQueryId());
      byte[] key = topics.results().keySerde().serializer().serialize(topics.results().name(), new QueryKey(q.getQueryId()));
      if (before.isEmpty()) {
        long t0 = System.nanoTime();
        QuestionHandler.Outcome o = handler.handle(q);
        metrics.handled(o, System.nanoTime() - t0);
        AnswerLedger.Entry stored = ledger.record(q.getQueryId(), encode(o));
        out.add(resultRecord(stored, key));
        for (ExamRecord e : o.exam()) {
          out.add(new ProducerRecord<>(topics.audit().name(), key, topics.audit().valueSerde().serializer().serialize(topics.audit().name(), e)));
        }
        answeredId = q.getQueryId();
      } else if (!before.get().emitted()) {
        LOG.info("query {} was answered but not emitted; emitting the stored outcome", q.getQueryId());
        out.add(resultRecord(before.get(), key));
        answeredId = q.getQueryId();
      } else {
        LOG.info("query {} was answered before; not answering it again", q.getQueryId());
      }
    } catch (SerializationException e) {
      out.add(deadLetter(rec, "undecodable request: " + e.getMessage()));
    } catch (java.sql.SQLException e) {
      LOG.warn("answer ledger unavailable, request {}/{}@{} will be read again: {}", rec.topic(), rec.partition(), rec.offset(), e.getMessage());
      return false;
    } catch (RuntimeException e) {
      LOG.error("request {}/{}@{} could not be processed", rec.topic(), rec.partition(), rec.offset(), e);
      out.clear();
      out.add(deadLetter(rec, "processing failed: " + e));
    }
    producer.beginTransaction();
    out.forEach(producer::send);
    producer.sendOffsetsToTransaction(Map.of(new TopicPartition(rec.topic(), rec.partition()), new OffsetAndMetadata(rec.offset() + 1)),
        consumer.groupMetadata());
    producer.commitTransaction();
    out.stream().filter(r -> r.topic().equals(topics.dlq(topics.requests()).name())).forEach(r -> metrics.deadLettered(r.topic()));
    if (answeredId != null) {
      try {
        ledger.markEmitted(answeredId);
      } catch (java.sql.SQLException e) {
        LOG.warn("query {} was emitted but could not be marked so: a redelivery would emit it again", answeredId, e);
      }
    }
    return true;
  }

  private ProducerRecord<byte[], byte[]> resultRecord(AnswerLedger.Entry stored, byte[] key) {
    String topic = stored.kind().equals("answered") ? topics.results().name() : topics.failures().name();
    return new ProducerRecord<>(topic, key, stored.value());
  }

  private ProducerRecord<byte[], byte[]> deadLetter(ConsumerRecord<byte[], byte[]> rec, String reason) {
    ProducerRecord<byte[], byte[]> dlq = new ProducerRecord<>(topics.dlq(topics.requests()).name(), rec.key(), rec.value());
    dlq.headers().add(ERROR_HEADER, reason.getBytes(StandardCharsets.UTF_8));
    dlq.headers().add(TopicCatalog.DLQ_SOURCE_HEADER, (rec.topic() + "/" + rec.partition() + "@" + rec.offset()).getBytes(StandardCharsets.UTF_8));
    return dlq;
  }

  private static void sleepQuietly(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private AnswerLedger.Entry encode(QuestionHandler.Outcome o) {
    if (o.answered()) {
      return new AnswerLedger.Entry("answered", topics.results().valueSerde().serializer().serialize(topics.results().name(), (QueryAnswered) o.result()), false);
    }
    return new AnswerLedger.Entry("failed", topics.failures().valueSerde().serializer().serialize(topics.failures().name(), (QueryFailed) o.result()), false);
  }

  /**
   * Empty when every worker runs and the group has assigned it its partitions; else what is missing
   * (the readiness check "partitions" of the health endpoint).
   */
  public Optional<String> notReady() {
    if (closed.get()) {
      return Optional.of("the query service is closed");
    }
    CountDownLatch workersLeft = stopped;
    int workers = workerCount;
    List<AtomicBoolean> now = List.copyOf(assigned);
    if (!running.get() || workersLeft == null) {
      return Optional.of("the workers have not started");
    }
    if (now.size() < workers) {
      return Optional.of("starting workers: " + now.size() + " of " + workers + " created");
    }
    long down = workers - workersLeft.getCount();
    if (down > 0) {
      return Optional.of(down + " of " + workers + " workers stopped");
    }
    long waiting = now.stream().filter(a -> !a.get()).count();
    return waiting == 0 ? Optional.empty() : Optional.of(waiting + " of " + workers + " workers wait for their partition assignment");
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (running.compareAndSet(true, false)) {
      consumers.forEach(KafkaConsumer::wakeup);
      try {
        stopped.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    follower.ifPresent(IndexChangeFollower::close);
    clientMetrics.forEach(KafkaClientMetrics::close);
    for (AutoCloseable r : owned) {
      try {
        r.close();
      } catch (Exception e) {
        LOG.warn("closing {} failed: {}", r, e.getMessage());
      }
    }
  }
}
