package dev.schemarag.query;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.sql.ErrorClass;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query service's Kafka side: {@code workers} threads, each a consumer in one group and a
 * transactional producer. Per request: decode (undecodable, or an empty query_id -> DLQ with the
 * reason), look the query_id up in the ledger (answered before -> the stored outcome again when the
 * question is the same, a failure when the id is reused for another), else answer, store, then
 * emit the answer or failure plus the exam records and commit the request's offset in one
 * transaction. An outcome that cannot be published (over the record limit) is replaced, in the
 * ledger and on the topic, by a failure; a worker outlives any one record. Ordering per query_id
 * follows from partitioning by key.
 */
public final class QueryService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
  static final String ERROR_HEADER = TopicCatalog.DLQ_REASON_HEADER;
  private static final Duration RETRY_PAUSE = Duration.ofSeconds(2);

  private final TopicCatalog topics;
  private final QuestionHandler handler;
  private final AnswerLedger ledger;
  private final Map<String, Object> kafka;
  private final String groupId;
  /** Session timeout and heartbeat of the workers' group membership; the user's kafka.* keys win. */
  private final Map<String, Object> membership;
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
  private final List<KafkaClientMetrics> clientMetrics = new CopyOnWriteArrayList<>();
  private volatile QueryMetrics metrics;
  private volatile WarmUp warmUp = (stop, asked) -> { };
  private volatile Thread warmUpThread;
  private final AtomicLong warmUpAsked = new AtomicLong();

  QueryService(TopicCatalog topics, QuestionHandler handler, AnswerLedger ledger, Map<String, Object> kafka, String groupId,
               Map<String, Object> membership, Optional<IndexChangeFollower> follower, List<AutoCloseable> owned) {
    this.owned = List.copyOf(owned);
    this.topics = topics;
    this.handler = handler;
    this.ledger = ledger;
    this.kafka = Map.copyOf(kafka);
    this.groupId = groupId;
    this.membership = Map.copyOf(membership);
    this.follower = follower;
  }

  /** Applies a re-read list of sources: what adding and removing a source at runtime takes. */
  interface SourceUpdater {
    void apply(List<dev.schemarag.core.config.SourceDatabase> sources) throws java.sql.SQLException;
  }

  private volatile SourceUpdater sourceUpdater = s -> {
    throw new IllegalStateException("this query service cannot change its sources");
  };

  void sourcesFrom(SourceUpdater updater) {
    this.sourceUpdater = updater;
  }

  /** Retrieval asked of the loaded indexes when the service starts, before its first askers come; it stops when told to. */
  interface WarmUp {
    void run(BooleanSupplier stop, AtomicLong asked) throws Exception;
  }

  void warmUpWith(WarmUp w) {
    this.warmUp = w;
  }

  /** How many start-up warm-up questions have been asked so far (diagnostics and tests). */
  long warmUpAsked() {
    return warmUpAsked.get();
  }

  /**
   * Answers from now on for exactly these sources: a new one is connected, a removed one's
   * connections are closed and its loaded index dropped (its chunks leave the store through the
   * indexer, as the ingest tombstones its tables). Questions of other sources go on meanwhile.
   *
   * @throws java.sql.SQLException when a new source cannot be reached; the sources stay as they were
   */
  public void applySources(List<dev.schemarag.core.config.SourceDatabase> sources) throws java.sql.SQLException {
    sourceUpdater.apply(sources);
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
    metrics = new QueryMetrics(registry, topics.dlq(topics.requests()).name(), topics.dlq(topics.indexEvents()).name());
    follower.ifPresent(f -> f.start(metrics));
    workerCount = workers;
    stopped = new CountDownLatch(workers);
    for (int i = 0; i < workers; i++) {
      Map<String, Object> c = new HashMap<>(membership);
      c.putAll(kafka);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
      c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
      KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      KafkaProducer<byte[], byte[]> producer = newProducer(registry);
      consumers.add(consumer);
      KafkaClientMetrics consumerMetrics = new KafkaClientMetrics(consumer);
      consumerMetrics.bindTo(registry);
      clientMetrics.add(consumerMetrics);
      AtomicBoolean hasPartitions = new AtomicBoolean();
      assigned.add(hasPartitions);
      Thread t = new Thread(() -> loop(consumer, producer, hasPartitions, registry), "query-worker-" + i);
      threads.add(t);
      t.start();
    }
    // Beside the workers, not before them: readiness and the group's join do not wait for it.
    WarmUp w = warmUp;
    Thread warming = new Thread(() -> {
      long s = System.nanoTime();
      try {
        w.run(closed::get, warmUpAsked);
        LOG.info("warm-up: {} questions asked of the loaded indexes in {} ms", warmUpAsked.get(), (System.nanoTime() - s) / 1_000_000);
      } catch (Exception e) {
        LOG.warn("the start-up warm-up stopped after {} questions: {}", warmUpAsked.get(), e.toString());
      }
    }, "query-warm-up");
    warming.setDaemon(true);
    warmUpThread = warming;
    warming.start();
  }

  /** A transactional producer of its own for one worker (a fenced or failed one is replaced by a new one). */
  private KafkaProducer<byte[], byte[]> newProducer(MeterRegistry registry) {
    Map<String, Object> p = new HashMap<>(kafka);
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, groupId + "-" + UUID.randomUUID());
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    try {
      producer.initTransactions();
    } catch (RuntimeException e) {
      producer.close(Duration.ZERO);
      throw e;
    }
    KafkaClientMetrics m = new KafkaClientMetrics(producer);
    m.bindTo(registry);
    clientMetrics.add(m);
    return producer;
  }

  private void loop(KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> first, AtomicBoolean hasPartitions,
                    MeterRegistry registry) {
    KafkaProducer<byte[], byte[]> producer = first;
    try (consumer) {
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
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        consumer.poll(Duration.ofMillis(200)).forEach(batch::add);
        for (int i = 0; i < batch.size(); i++) {
          ConsumerRecord<byte[], byte[]> rec = batch.get(i);
          boolean done = false;
          try {
            if (producer == null) {
              producer = newProducer(registry);
            }
            done = processOrDeadLetter(rec, consumer, producer);
          } catch (WakeupException e) {
            throw e;
          } catch (ProducerBroken | KafkaException e) {
            // The producer cannot go on (fenced, a transaction it cannot abort, no broker to start with): a new one, and the record again.
            LOG.warn("query worker replaces its producer at request {}/{}@{}: {}", rec.topic(), rec.partition(), rec.offset(), rootMessage(e));
            if (producer != null) {
              producer.close(Duration.ZERO);
              producer = null;
            }
          }
          if (!done) {
            // Not processed (ledger or broker unreachable): read it again after a pause, and with it the rest of
            // the batch, other partitions' records included (the poll moved past them too), so nothing is lost.
            firstUnprocessed(batch.subList(i, batch.size())).forEach(consumer::seek);
            metrics.deferred();
            sleepQuietly(RETRY_PAUSE);
            break;
          }
        }
      }
    } catch (WakeupException e) {
      // stopping
    } catch (RuntimeException e) {
      LOG.error("query worker stopped: {}", e.getMessage(), e);
    } finally {
      if (producer != null) {
        producer.close();
      }
      stopped.countDown();
    }
  }

  /**
   * Where each partition of a batch's unprocessed records must be read again from: its first
   * unprocessed offset. A poll returns records of several partitions at once and advances the
   * position of each, so rewinding only the partition whose record failed would skip the others'.
   */
  static Map<TopicPartition, Long> firstUnprocessed(List<ConsumerRecord<byte[], byte[]>> unprocessed) {
    Map<TopicPartition, Long> from = new java.util.LinkedHashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : unprocessed) {
      from.merge(new TopicPartition(r.topic(), r.partition()), r.offset(), Math::min);
    }
    return from;
  }

  /** {@link #process}; a request whose processing fails unforeseen goes to the DLQ with the reason rather than stop the worker. */
  private boolean processOrDeadLetter(ConsumerRecord<byte[], byte[]> rec, KafkaConsumer<byte[], byte[]> consumer,
                                      KafkaProducer<byte[], byte[]> producer) {
    try {
      return process(rec, consumer, producer);
    } catch (ProducerBroken | WakeupException e) {
      throw e;
    } catch (RuntimeException | StackOverflowError e) {
      LOG.error("request {}/{}@{} could not be processed", rec.topic(), rec.partition(), rec.offset(), e);
      return deadLetterOnly(rec, consumer, producer, "processing failed: " + e);
    }
  }

  /**
   * One request: exactly one answer or failure event for its query_id, or the DLQ when it has none to
   * key it by. Throws {@link KafkaException} only when the producer itself cannot go on.
   *
   * @return false when the record must be read again
   */
  private boolean process(ConsumerRecord<byte[], byte[]> rec, KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer) {
    Topic<QueryKey, QuestionRequested> in = topics.requests();
    QuestionRequested q;
    try {
      q = in.valueSerde().deserializer().deserialize(rec.topic(), rec.value());
      if (q == null) {
        throw new SerializationException("a request without a value (tombstone)");
      }
    } catch (SerializationException e) {
      return deadLetterOnly(rec, consumer, producer, "undecodable request: " + e.getMessage());
    }
    String id = q.getQueryId();
    if (id == null || id.isBlank()) {
      // No failure event: nobody can wait for an empty key, and one ledger row would answer every such request.
      return deadLetterOnly(rec, consumer, producer, "the request has an empty query_id: no answer or failure could be correlated with it");
    }
    byte[] key = topics.results().keySerde().serializer().serialize(topics.results().name(), new QueryKey(id));
    List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
    boolean toMark;
    try {
      Optional<AnswerLedger.Entry> before = ledger.find(id);
      if (before.isEmpty()) {
        long t0 = System.nanoTime();
        QuestionHandler.Outcome o = handleSafely(q);
        metrics.handled(o, System.nanoTime() - t0);
        AnswerLedger.Entry stored = ledger.record(id, encode(q, o));
        out.add(resultRecord(stored, key));
        for (ExamRecord e : o.exam()) {
          out.add(new ProducerRecord<>(topics.audit().name(), key, topics.audit().valueSerde().serializer().serialize(topics.audit().name(), e)));
        }
        toMark = !stored.emitted();
      } else if (!before.get().emitted()) {
        LOG.info("query {} was answered but not emitted; emitting the stored outcome", id);
        out.add(resultRecord(before.get(), key));
        toMark = true;
      } else if (asks(before.get(), q)) {
        // The query_id came again with the same question (a client's retry): the earlier outcome again, not a second run.
        LOG.info("query {} was answered before; emitting the earlier outcome again", id);
        out.add(resultRecord(before.get(), key));
        toMark = false;
      } else {
        QueryFailed reused = AnswerEvents.failedEarly(q, ErrorClass.VALIDATION_BLOCK, "validation", "query_id " + id
            + " was used before for another question or by another principal; ask with a new query_id", System.currentTimeMillis());
        out.add(new ProducerRecord<>(topics.failures().name(), key, topics.failures().valueSerde().serializer().serialize(topics.failures().name(), reused)));
        toMark = false;
      }
    } catch (java.sql.SQLException e) {
      LOG.warn("answer ledger unavailable, request {}/{}@{} will be read again: {}", rec.topic(), rec.partition(), rec.offset(), e.getMessage());
      return false;
    }
    Optional<RuntimeException> failed = commit(out, rec, consumer, producer);
    if (failed.isPresent()) {
      if (retriable(failed.get())) {
        LOG.warn("the outcome of query {} could not be published for now, request {}/{}@{} will be read again: {}", id, rec.topic(),
            rec.partition(), rec.offset(), failed.get().toString());
        return false;
      }
      return publishFailureInstead(rec, consumer, producer, q, key, failed.get());
    }
    if (toMark) {
      markEmitted(id);
    }
    return true;
  }

  /** The handler's outcome; a handler that throws still gives the question its failure event. */
  private QuestionHandler.Outcome handleSafely(QuestionRequested q) {
    try {
      return handler.handle(q);
    } catch (RuntimeException | StackOverflowError e) {
      LOG.error("query {} could not be handled", q.getQueryId(), e);
      return new QuestionHandler.Outcome(AnswerEvents.failedEarly(q, ErrorClass.UNKNOWN, "service", "the question could not be handled: " + e,
          System.currentTimeMillis()), false, List.of());
    }
  }

  /**
   * The outcome could not be published (a record over the broker's limit, a value the serializer
   * refuses): a failure takes its place, stored over it in the ledger first so that no restart or
   * redelivery emits the poison outcome again. Should even that fail, the request goes to the DLQ.
   */
  private boolean publishFailureInstead(ConsumerRecord<byte[], byte[]> rec, KafkaConsumer<byte[], byte[]> consumer,
                                        KafkaProducer<byte[], byte[]> producer, QuestionRequested q, byte[] key, RuntimeException cause) {
    String reason = "the outcome could not be published: " + rootMessage(cause);
    LOG.warn("query {}: {}", q.getQueryId(), reason);
    QueryFailed f = AnswerEvents.unpublishable(q, reason, System.currentTimeMillis());
    AnswerLedger.Entry entry = new AnswerLedger.Entry("failed", topics.failures().valueSerde().serializer().serialize(topics.failures().name(), f), false);
    try {
      ledger.replace(q.getQueryId(), entry);
    } catch (java.sql.SQLException e) {
      LOG.warn("answer ledger unavailable, request {}/{}@{} will be read again: {}", rec.topic(), rec.partition(), rec.offset(), e.getMessage());
      return false;
    }
    metrics.unpublishable();
    Optional<RuntimeException> again = commit(List.of(resultRecord(entry, key)), rec, consumer, producer);
    if (again.isEmpty()) {
      markEmitted(q.getQueryId());
      return true;
    }
    if (retriable(again.get())) {
      return false;
    }
    return deadLetterOnly(rec, consumer, producer, reason + "; its failure event could not be published either: " + rootMessage(again.get()));
  }

  /** The request to the DLQ with the reason; should that fail too, its offset alone, so one record never stops the worker. */
  private boolean deadLetterOnly(ConsumerRecord<byte[], byte[]> rec, KafkaConsumer<byte[], byte[]> consumer,
                                 KafkaProducer<byte[], byte[]> producer, String reason) {
    Optional<RuntimeException> failed = commit(List.of(deadLetter(rec, reason)), rec, consumer, producer);
    if (failed.isEmpty()) {
      metrics.deadLettered(topics.dlq(topics.requests()).name());
      return true;
    }
    if (retriable(failed.get())) {
      return false;
    }
    LOG.error("request {}/{}@{} skipped: {}; and the DLQ refused it: {}", rec.topic(), rec.partition(), rec.offset(), reason,
        rootMessage(failed.get()));
    return commit(List.of(), rec, consumer, producer).isEmpty();
  }

  /**
   * The records and the request's offset in one transaction.
   *
   * @return the failure when the transaction was aborted; a producer that cannot even abort throws
   */
  private Optional<RuntimeException> commit(List<ProducerRecord<byte[], byte[]>> out, ConsumerRecord<byte[], byte[]> rec,
                                            KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer) {
    try {
      producer.beginTransaction();
    } catch (RuntimeException e) {
      throw new ProducerBroken(e);
    }
    try {
      out.forEach(producer::send);
      producer.sendOffsetsToTransaction(Map.of(new TopicPartition(rec.topic(), rec.partition()), new OffsetAndMetadata(rec.offset() + 1)),
          consumer.groupMetadata());
      producer.commitTransaction();
      return Optional.empty();
    } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException | UnsupportedVersionException e) {
      throw new ProducerBroken(e);
    } catch (RuntimeException e) {
      try {
        producer.abortTransaction();
      } catch (RuntimeException a) {
        throw new ProducerBroken(a);
      }
      return Optional.of(e);
    }
  }

  /** The worker's producer cannot be used any more: it is replaced and the request read again. */
  private static final class ProducerBroken extends RuntimeException {
    ProducerBroken(Throwable cause) {
      super(cause);
    }
  }

  /** Whether the failure may pass by itself (broker unreachable, leader moving), so the request is worth reading again. */
  static boolean retriable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof RetriableException) {
        return true;
      }
    }
    return false;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  private void markEmitted(String queryId) {
    try {
      ledger.markEmitted(queryId);
    } catch (java.sql.SQLException e) {
      LOG.warn("query {} was emitted but could not be marked so: a redelivery would emit it again", queryId, e);
    }
  }

  /**
   * Whether a stored outcome answers this request: the same principal asking the same question of
   * the same database (a retry), not another question, or another principal's, under a reused id.
   * A principal never gets an answer run under someone else's role. Outcomes name the principal the
   * access policy decided on, so the request's is compared as the policy decides it.
   */
  private boolean asks(AnswerLedger.Entry stored, QuestionRequested q) {
    try {
      if (stored.kind().equals("answered")) {
        QueryAnswered a = topics.results().valueSerde().deserializer().deserialize(topics.results().name(), stored.value());
        return a.getDatabaseId().equals(q.getDatabaseId()) && a.getQuestion().equals(q.getQuestion())
            && Objects.equals(a.getRequestedBy(), handler.principalOf(q));
      }
      QueryFailed f = topics.failures().valueSerde().deserializer().deserialize(topics.failures().name(), stored.value());
      return f.getDatabaseId().equals(q.getDatabaseId()) && f.getQuestion().equals(q.getQuestion())
          && Objects.equals(f.getRequestedBy(), handler.principalOf(q));
    } catch (SerializationException e) {
      return true; // stored under an older schema: the earlier outcome stands
    }
  }

  private ProducerRecord<byte[], byte[]> resultRecord(AnswerLedger.Entry stored, byte[] key) {
    String topic = stored.kind().equals("answered") ? topics.results().name() : topics.failures().name();
    return new ProducerRecord<>(topic, key, stored.value());
  }

  private ProducerRecord<byte[], byte[]> deadLetter(ConsumerRecord<byte[], byte[]> rec, String reason) {
    return TopicCatalog.deadLetter(rec, reason);
  }

  private static void sleepQuietly(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The outcome as stored and emitted; one the serializer refuses becomes a failure that says so. */
  private AnswerLedger.Entry encode(QuestionRequested q, QuestionHandler.Outcome o) {
    try {
      if (o.answered()) {
        return new AnswerLedger.Entry("answered", topics.results().valueSerde().serializer().serialize(topics.results().name(), (QueryAnswered) o.result()), false);
      }
      return new AnswerLedger.Entry("failed", topics.failures().valueSerde().serializer().serialize(topics.failures().name(), (QueryFailed) o.result()), false);
    } catch (RuntimeException e) {
      QueryFailed f = AnswerEvents.unpublishable(q, "the outcome could not be encoded: " + rootMessage(e), System.currentTimeMillis());
      return new AnswerLedger.Entry("failed", topics.failures().valueSerde().serializer().serialize(topics.failures().name(), f), false);
    }
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
    Thread warming = warmUpThread;
    if (warming != null) {
      try {
        // It stops at its next question (closed is set); the pools it reads through close after it.
        warming.join(Duration.ofSeconds(30).toMillis());
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
