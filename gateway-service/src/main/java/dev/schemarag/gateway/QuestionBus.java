package dev.schemarag.gateway;

import dev.schemarag.contracts.Topic;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's Kafka side: one producer publishing {@code QuestionRequested}, and one consumer for
 * all requests, assigned every partition of the results and failures topics from their end
 * (read_committed, no group), feeding {@link PendingAnswers}. Never a consumer per request.
 */
public final class QuestionBus implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(QuestionBus.class);

  private final TopicCatalog topics;
  private final PendingAnswers pending;
  private final KafkaProducer<byte[], byte[]> producer;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean healthy;
  private final Thread thread;

  public QuestionBus(TopicCatalog topics, Map<String, Object> kafka, PendingAnswers pending) {
    this.topics = topics;
    this.pending = pending;
    Map<String, Object> p = new HashMap<>(kafka);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    Map<String, Object> c = new HashMap<>(kafka);
    c.remove(ConsumerConfig.GROUP_ID_CONFIG);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    thread = new Thread(this::loop, "gateway-answers");
    thread.setDaemon(true);
  }

  /** Starts the answer consumer and returns once it reads from the topics' ends. */
  public void start(Duration within) throws InterruptedException, TimeoutException {
    thread.start();
    if (!positioned.await(within.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new TimeoutException("the gateway could not read " + topics.results().name() + " and " + topics.failures().name()
          + " within " + within.toSeconds() + " s: is the broker up and are the topics created?");
    }
  }

  private void loop() {
    try {
      List<TopicPartition> parts = Stream.of(topics.results().name(), topics.failures().name())
          .flatMap(t -> consumer.partitionsFor(t, Duration.ofSeconds(30)).stream())
          .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
      if (parts.isEmpty()) {
        throw new IllegalStateException("the broker has no topic " + topics.results().name());
      }
      consumer.assign(parts);
      consumer.seekToEnd(parts);
      // resolve the end offsets now: anything published after start() returns is read
      parts.forEach(consumer::position);
      healthy = true;
      positioned.countDown();
      while (running.get()) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          accept(r);
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      LOG.error("the gateway's answer consumer stopped: {}", e.getMessage(), e);
    } finally {
      healthy = false;
      consumer.close(Duration.ofSeconds(5));
      stopped.countDown();
    }
  }

  private void accept(ConsumerRecord<byte[], byte[]> r) {
    try {
      if (r.topic().equals(topics.results().name())) {
        QueryAnswered a = topics.results().valueSerde().deserializer().deserialize(r.topic(), r.value());
        if (a != null) {
          pending.complete(new Outcome.Answered(a));
        }
      } else {
        QueryFailed f = topics.failures().valueSerde().deserializer().deserialize(r.topic(), r.value());
        if (f != null) {
          pending.complete(new Outcome.Failed(f));
        }
      }
    } catch (RuntimeException e) {
      // No request can be completed by it; it goes to its topic's .dlq with the reason (from each gateway that read it).
      LOG.warn("undecodable record {}/{}@{} dead-lettered: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
      producer.send(TopicCatalog.deadLetter(r, "undecodable outcome: " + e.getMessage()), (md, err) -> {
        if (err != null) {
          LOG.error("undecodable record {}/{}@{} could not be dead-lettered: {}", r.topic(), r.partition(), r.offset(), err.toString());
        }
      });
    }
  }

  /** Whether answers can be received (the consumer is positioned and running). */
  public boolean ready() {
    return healthy && running.get();
  }

  /** Registers the query, then publishes it; the future completes with its answer or failure. */
  public CompletableFuture<Outcome> publish(QuestionRequested q) {
    CompletableFuture<Outcome> f = pending.register(q.getQueryId());
    Topic<QueryKey, QuestionRequested> t = topics.requests();
    try {
      producer.send(new ProducerRecord<>(t.name(), t.keySerde().serializer().serialize(t.name(), new QueryKey(q.getQueryId())),
          t.valueSerde().serializer().serialize(t.name(), q))).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pending.forget(q.getQueryId());
      throw new IllegalStateException("interrupted while publishing query " + q.getQueryId(), e);
    } catch (ExecutionException | TimeoutException e) {
      pending.forget(q.getQueryId());
      throw new IllegalStateException("could not publish query " + q.getQueryId() + " to " + t.name() + ": " + e.getMessage(), e);
    }
    return f;
  }

  /** Publishes and waits up to {@code timeout} for the answer or failure. */
  public Outcome ask(QuestionRequested q, Duration timeout) throws AnswerTimeout, InterruptedException {
    CompletableFuture<Outcome> f = publish(q);
    try {
      return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AnswerTimeout(q.getQueryId(), timeout);
    } catch (ExecutionException e) {
      throw new IllegalStateException("query " + q.getQueryId() + ": " + e.getCause(), e.getCause());
    } catch (java.util.concurrent.CancellationException e) {
      throw new AnswerTimeout(q.getQueryId(), timeout);
    }
  }

  public PendingAnswers.Status status(String queryId) {
    return pending.status(queryId);
  }

  @Override
  public void close() {
    if (running.compareAndSet(true, false)) {
      if (!thread.isAlive() && stopped.getCount() > 0) {
        consumer.close(Duration.ZERO);
        producer.close(Duration.ZERO);
        return;
      }
      consumer.wakeup();
      try {
        stopped.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      producer.close(Duration.ofSeconds(5));
    }
  }
}
