package dev.schemarag.cli;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The load of the chaos bench: a stream of schema and doc changes on the sample database, and
 * questions through Kafka, each with its own query_id, while processes are killed under them. Every
 * answer and failure event is counted by query_id, so a question never answered and an answer
 * emitted twice both show.
 */
final class ChaosLoad implements AutoCloseable {

  /** The schema the generator creates its tables in: one of the sample's, so the stack indexes them. */
  static final String SCHEMA = "support";

  private final ConnectionSource db;
  private final Path docsDir;
  private final TopicCatalog topics;
  private final Random random;
  private final List<Table> sampleTables;
  private final Map<Path, String> originalDocs = new LinkedHashMap<>();

  private final KafkaProducer<byte[], byte[]> producer;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread collector;
  private volatile boolean closed;

  /** query_id -> {published at ms, answers, failures}; published at is 0 until the broker acknowledged the request. */
  private final Map<String, long[]> questions = new ConcurrentHashMap<>();
  private final AtomicInteger notPublished = new AtomicInteger();
  private final Map<String, Integer> failureClasses = new ConcurrentHashMap<>();
  private final AtomicLong lastOutcomeMs = new AtomicLong();

  private final List<String> liveTables = new ArrayList<>();
  private int nextTable;
  private int nextChange;
  private final Map<String, Integer> applied = new LinkedHashMap<>();
  private final AtomicInteger retries = new AtomicInteger();

  private volatile Thread changes;
  private volatile Thread asking;
  private volatile boolean running;

  /**
   * @param model the sample's catalog when the load starts: the columns the generator comments on
   * @param docsDir the docs folder the stack's doc watcher reads
   */
  ChaosLoad(ConnectionSource db, SchemaModel model, Path docsDir, TopicCatalog topics, Map<String, Object> kafka, long seed) throws IOException {
    this.db = db;
    this.docsDir = docsDir;
    this.topics = topics;
    this.random = new Random(seed);
    this.sampleTables = model.tables().stream().filter(t -> !t.name().startsWith(SCHEMA + ".chaos_")).toList();
    try (Stream<Path> files = Files.list(docsDir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".md") && !p.getFileName().toString().startsWith("_")).sorted().toList()) {
        originalDocs.put(f, Files.readString(f, StandardCharsets.UTF_8));
      }
    }
    Map<String, Object> p = new HashMap<>(kafka);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    // A request sent while the broker is down waits for it to come back rather than fail.
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300_000);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
    producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    consumer = QuestionClient.outcomesFromNow(topics, kafka);
    collector = new Thread(this::collect, "chaos-outcomes");
    collector.setDaemon(true);
    collector.start();
  }

  // ---------------------------------------------------------------- outcomes

  /** Reads every answer and failure event; one consumer thread owns the consumer. */
  private void collect() {
    while (!closed) {
      try {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          String id;
          int slot;
          if (r.topic().equals(topics.results().name())) {
            QueryAnswered a = topics.results().valueSerde().deserializer().deserialize(r.topic(), r.value());
            id = a == null ? null : a.getQueryId();
            slot = 1;
          } else {
            QueryFailed f = topics.failures().valueSerde().deserializer().deserialize(r.topic(), r.value());
            id = f == null ? null : f.getQueryId();
            slot = 2;
            if (f != null && questions.containsKey(id)) {
              failureClasses.merge(f.getErrorClass() + " at " + f.getStage(), 1, Integer::sum);
            }
          }
          long[] q = id == null ? null : questions.get(id);
          if (q != null) {
            synchronized (q) {
              q[slot]++;
            }
            lastOutcomeMs.set(System.currentTimeMillis());
          }
        }
      } catch (org.apache.kafka.common.errors.InterruptException | org.apache.kafka.common.errors.WakeupException e) {
        return;
      } catch (RuntimeException e) {
        // the broker went away: the consumer reconnects on the next poll
        sleep(200);
      }
    }
  }

  /** Publishes one question; returns its query_id. */
  String ask(String question) {
    String id = UUID.randomUUID().toString();
    long[] q = new long[3];
    questions.put(id, q);
    QuestionRequested r = QuestionRequested.newBuilder().setQueryId(id).setDatabaseId(SampleDatabase.DATABASE_ID).setQuestion(question)
        .setOptions(QuestionOptions.newBuilder().build()).setRequestedAtMs(System.currentTimeMillis()).build();
    var requests = topics.requests();
    try {
      producer.send(new ProducerRecord<>(requests.name(), requests.keySerde().serializer().serialize(requests.name(), new QueryKey(id)),
          requests.valueSerde().serializer().serialize(requests.name(), r)), (meta, e) -> {
            if (e != null) {
              notPublished(id);
            } else {
              q[0] = System.currentTimeMillis();
            }
          });
    } catch (RuntimeException e) {
      // refused before it was sent (no callback then): not published, and the asking goes on
      notPublished(id);
    }
    return id;
  }

  /** A question the broker never took is not waited for, only counted. */
  private void notPublished(String id) {
    questions.remove(id);
    notPublished.incrementAndGet();
  }

  /** Outcome counts of the questions published so far. */
  record Outcomes(int published, int notPublished, int answered, int failed, int unanswered, int duplicates, int queryIdsWithDuplicates) {}

  Outcomes outcomes() {
    int published = 0;
    int answered = 0;
    int failed = 0;
    int unanswered = 0;
    int duplicates = 0;
    int withDuplicates = 0;
    for (long[] q : questions.values()) {
      long a;
      long f;
      synchronized (q) {
        a = q[1];
        f = q[2];
      }
      published++;
      if (a > 0) {
        answered++;
      } else if (f > 0) {
        failed++;
      } else {
        unanswered++;
      }
      if (a + f > 1) {
        duplicates += (int) (a + f - 1);
        withDuplicates++;
      }
    }
    return new Outcomes(published, notPublished.get(), answered, failed, unanswered, duplicates, withDuplicates);
  }

  /** The query_ids published without an answer or a failure so far. */
  java.util.Set<String> unansweredIds() {
    java.util.Set<String> ids = new java.util.TreeSet<>();
    questions.forEach((id, q) -> {
      synchronized (q) {
        if (q[1] + q[2] == 0) {
          ids.add(id);
        }
      }
    });
    return ids;
  }

  /** Failure events by error class and stage. */
  Map<String, Integer> failureClasses() {
    return new java.util.TreeMap<>(failureClasses);
  }

  /** Whether every question asked has an answer or a failure. */
  boolean allOutcomesIn() {
    producer.flush();
    return outcomes().unanswered() == 0;
  }

  boolean hasOutcome(String queryId) {
    long[] q = questions.get(queryId);
    if (q == null) {
      return false;
    }
    synchronized (q) {
      return q[1] + q[2] > 0;
    }
  }

  // ---------------------------------------------------------------- the stream of changes and questions

  /** Starts applying changes about every {@code changeEvery} and asking a question about every {@code askEvery}. */
  synchronized void start(Duration changeEvery, Duration askEvery, String question) {
    if (running) {
      return;
    }
    running = true;
    changes = new Thread(() -> {
      while (running) {
        applyNextChange();
        sleep(changeEvery.toMillis() / 2 + random(changeEvery.toMillis()));
      }
    }, "chaos-changes");
    asking = new Thread(() -> {
      while (running) {
        ask(question);
        sleep(askEvery.toMillis());
      }
    }, "chaos-questions");
    changes.start();
    asking.start();
  }

  /** Stops the stream; returns once no change is under way. */
  synchronized void stop() throws InterruptedException {
    running = false;
    if (changes != null) {
      changes.join();
      asking.join();
    }
    producer.flush();
  }

  private long random(long bound) {
    synchronized (random) {
      return bound <= 0 ? 0 : (long) (random.nextDouble() * bound);
    }
  }

  private int randomInt(int bound) {
    synchronized (random) {
      return random.nextInt(bound);
    }
  }

  /**
   * One change, applied until it commits (PostgreSQL may be down): every statement is idempotent
   * (IF [NOT] EXISTS, COMMENT), so a change whose commit was cut off is safe to apply again.
   */
  void applyNextChange() {
    int k = nextChange++;
    int pick = randomInt(10);
    String kind;
    List<String> sql = new ArrayList<>();
    Runnable after = () -> {};
    if (pick < 2 || liveTables.size() < 2) {
      String t = SCHEMA + ".chaos_t" + nextTable++;
      kind = "create_table";
      sql.add("CREATE TABLE IF NOT EXISTS " + t + " (id int PRIMARY KEY, note text)");
      sql.add("COMMENT ON TABLE " + t + " IS 'chaos table made by change " + k + "'");
      after = () -> liveTables.add(t);
    } else if (pick < 4) {
      String t = liveTables.get(randomInt(liveTables.size()));
      kind = "add_column";
      sql.add("ALTER TABLE " + t + " ADD COLUMN IF NOT EXISTS c" + k + " text");
      sql.add("COMMENT ON COLUMN " + t + ".c" + k + " IS 'chaos column of change " + k + "'");
    } else if (pick < 6) {
      Table t = sampleTables.get(randomInt(sampleTables.size()));
      String column = t.columns().get(randomInt(t.columns().size())).name();
      kind = "comment";
      sql.add("COMMENT ON COLUMN " + t.name() + "." + column + " IS 'revised by chaos change " + k + "'");
    } else if (pick < 7 && liveTables.size() > 3) {
      String t = liveTables.get(randomInt(liveTables.size()));
      kind = "drop_table";
      sql.add("DROP TABLE IF EXISTS " + t);
      after = () -> liveTables.remove(t);
    } else {
      kind = "doc";
    }
    if (kind.equals("doc")) {
      List<Path> docs = List.copyOf(originalDocs.keySet());
      Path f = docs.get(randomInt(docs.size()));
      String revised = originalDocs.get(f).replaceFirst("(## Purpose\\R)([^\\r\\n]*)", "$1$2 Revised by chaos change " + k + ".");
      try {
        Files.writeString(f, revised, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    } else {
      while (!closed) {
        try (Connection c = db.open(); Statement s = c.createStatement()) {
          c.setAutoCommit(false);
          for (String q : sql) {
            s.execute(q);
          }
          c.commit();
          break;
        } catch (SQLException e) {
          // PostgreSQL is down or restarting: the change waits for it
          retries.incrementAndGet();
          sleep(500);
        }
      }
    }
    after.run();
    synchronized (applied) {
      applied.merge(kind, 1, Integer::sum);
    }
  }

  /** Changes applied so far, by kind. */
  Map<String, Integer> applied() {
    synchronized (applied) {
      return new LinkedHashMap<>(applied);
    }
  }

  int retries() {
    return retries.get();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
    closed = true;
    collector.join(5_000);
    producer.close(Duration.ofSeconds(5));
    consumer.close(Duration.ofSeconds(5));
  }
}
