package dev.schemarag.cli;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.service.ServiceSettings;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The chaos suite on a process stack ({@link ProcessStack}) of its own: rounds of SIGKILLs to the
 * ingest, indexer and query services, the broker and PostgreSQL at seeded random moments while
 * {@link ChaosLoad} changes the schema and docs and asks questions; each killed process is started
 * again and the time until every service is ready again is taken. Then the checks: the index equals
 * what {@link Chunker#chunkAll} gives over the catalog and the docs, chunk by chunk (texts, content
 * hash, model id); every question has an answer or a failure; duplicate outcome events per query_id
 * are counted. Then the same stack with a second query service and a second indexer: how the work is
 * shared, throughput with one and with two instances, and the survivor taking over a killed one.
 */
final class ChaosRun {

  /** What a run is asked for. */
  record Settings(int rounds, long seed, Duration killGap, Duration changeEvery, Duration askEvery, int burst, boolean scale,
                  Duration timeout) {}

  /** The scripted model's reply to every prompt: a count the default principal may run. */
  static final String SQL = "SELECT count(*) AS customers FROM sales.customers";
  private static final String QUESTION = "How many customers are there?";
  private static final List<String> TARGETS = List.of("ingest-service", "indexer-service", "query-service", "kafka", "postgresql");

  private final ProcessStack stack;
  private final Settings settings;
  private final PrintStream out;
  private final Random random;

  private ConnectionSource db;
  private TopicCatalog topics;
  private Map<String, Object> kafka;
  private String modelId;
  private String queryGroup;
  private Path docsDir;
  /** The column values the ingest service reads with each table: the catalog truth must read the same. */
  private int columnValues;

  ChaosRun(ProcessStack stack, Settings settings, PrintStream out) {
    this.stack = stack;
    this.settings = settings;
    this.out = out;
    this.random = new Random(settings.seed());
  }

  /** Runs on a stack that {@code up} has made ready; returns the figures (ordered as printed). */
  Map<String, Object> run() throws Exception {
    Properties state = stack.readState().orElseThrow(() -> new IllegalStateException("the chaos stack does not run"));
    SchemaragConfig config = SchemaragConfig.load(Optional.of(Path.of(state.getProperty("config.file"))), Map.of(), Map.of());
    db = ConnectionSource.of(state.getProperty("db.url"), config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
    topics = ServiceSettings.topics(config);
    kafka = ServiceSettings.kafka(config, state.getProperty("bootstrap.servers"));
    modelId = config.get(ConfigKeys.EMBEDDING_MODEL);
    queryGroup = config.get(ConfigKeys.QUERY_GROUP);
    docsDir = Path.of(config.get(ConfigKeys.DOCS_ROOT)).resolve(SampleDatabase.DATABASE_ID).resolve("docs");
    columnValues = config.getInt(ConfigKeys.CATALOG_COLUMN_VALUES);
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("seed", settings.seed());
    figures.put("rounds", settings.rounds());
    figures.put("load_average_at_start", loadAverage());
    long t0 = System.nanoTime();
    Map<String, Object> single = singleInstanceRounds();
    figures.put("single_instance", single);
    Map<String, Object> scale = settings.scale() ? twoInstances() : Map.of();
    if (settings.scale()) {
      figures.put("two_instances", scale);
    }
    figures.put("load_average_at_end", loadAverage());
    figures.put("duration_s", Math.round((System.nanoTime() - t0) / 1e9));
    figures.put("ddl_changes_lost", (int) single.get("ddl_changes_lost") + (int) scale.getOrDefault("ddl_changes_lost", 0));
    figures.put("questions_unanswered", (int) single.get("questions_unanswered") + (int) scale.getOrDefault("questions_unanswered", 0));
    figures.put("duplicate_answers", (int) single.get("duplicate_answers") + (int) scale.getOrDefault("duplicate_answers", 0));
    figures.put("recovery_ms", single.get("recovery_ms"));
    // The load makes no bad record: a dead letter of the indexer here is a change that an outage made it give up.
    List<String> dead = indexDeadLetters();
    figures.put("index_dead_letters", dead.size());
    figures.put("index_dead_letter_reasons", dead.stream().distinct().limit(5).toList());
    out.printf("index dead letters: %d%s%n", dead.size(), dead.isEmpty() ? "" : " " + dead.stream().distinct().limit(5).toList());
    return figures;
  }

  /** True when what must hold held: nothing lost, every question answered or failed. */
  static boolean holds(Map<String, Object> figures) {
    return (int) figures.get("ddl_changes_lost") == 0 && (int) figures.get("questions_unanswered") == 0;
  }

  // ---------------------------------------------------------------- single instances

  private Map<String, Object> singleInstanceRounds() throws Exception {
    List<Map<String, Object>> kills = new ArrayList<>();
    Map<String, Integer> killsPerTarget = new LinkedHashMap<>();
    ChaosLoad.Outcomes outcomes;
    Map<String, Integer> failures;
    Map<String, Integer> applied;
    int retries;
    long settleMs;
    int lost;
    int chunks;
    try (ChaosLoad load = new ChaosLoad(db, catalog(), docsDir, topics, kafka, settings.seed())) {
      load.start(settings.changeEvery(), settings.askEvery(), QUESTION);
      for (int round = 1; round <= settings.rounds(); round++) {
        List<String> order = new ArrayList<>(TARGETS);
        java.util.Collections.shuffle(order, random);
        for (String target : order) {
          Thread.sleep(settings.killGap().toMillis() / 2 + (long) (random.nextDouble() * settings.killGap().toMillis()));
          Map<String, Object> k = killAndRecover(round, target);
          kills.add(k);
          killsPerTarget.merge(target, 1, Integer::sum);
        }
      }
      load.stop();
      long t = System.nanoTime();
      IndexCheck check = settle(load);
      settleMs = (System.nanoTime() - t) / 1_000_000;
      outcomes = load.outcomes();
      failures = load.failureClasses();
      applied = load.applied();
      retries = load.retries();
      lost = check.mismatches();
      chunks = check.chunks();
    }
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("kills_per_process", killsPerTarget);
    f.put("changes_applied", applied);
    f.put("change_retries_while_postgresql_down", retries);
    f.put("index_chunks", chunks);
    f.put("ddl_changes_lost", lost);
    f.put("settle_ms", settleMs);
    putOutcomes(f, outcomes);
    f.put("failures_by_class", failures);
    f.put("kills", kills);
    f.put("recovery_ms", recoveryFigures(kills));
    printOutcome("single instances", f);
    return f;
  }

  private Map<String, Object> killAndRecover(int round, String target) throws Exception {
    long pid;
    long t0 = System.nanoTime();
    if (target.equals("postgresql")) {
      pid = stack.killPostgres();
    } else {
      pid = stack.kill(ProcessStack.procs(stack.readState().orElseThrow()).stream().filter(p -> p.name().equals(target)).findFirst().orElseThrow());
    }
    out.printf("round %d: kill -9 %s (pid %d)%n", round, target, pid);
    List<String> restarted = stack.recover(settings.timeout(), out);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    out.printf("round %d: %s killed; %s started again; every service ready %.1f s after the kill%n", round, target, restarted, ms / 1e3);
    Map<String, Object> k = new LinkedHashMap<>();
    k.put("round", round);
    k.put("process", target);
    k.put("recovery_ms", ms);
    k.put("restarted", restarted);
    return k;
  }

  private static Map<String, Object> recoveryFigures(List<Map<String, Object>> kills) {
    Map<String, Object> r = new LinkedHashMap<>();
    List<Long> all = kills.stream().map(k -> (Long) k.get("recovery_ms")).toList();
    r.put("p50", all.isEmpty() ? 0 : FreshnessBench.percentile(all, 50));
    r.put("max", all.stream().mapToLong(Long::longValue).max().orElse(0));
    Map<String, List<Long>> byTarget = new LinkedHashMap<>();
    kills.forEach(k -> byTarget.computeIfAbsent((String) k.get("process"), x -> new ArrayList<>()).add((Long) k.get("recovery_ms")));
    byTarget.forEach((target, v) -> r.put(target, v));
    return r;
  }

  private static void putOutcomes(Map<String, Object> f, ChaosLoad.Outcomes o) {
    f.put("questions_published", o.published());
    f.put("questions_not_published", o.notPublished());
    f.put("questions_answered", o.answered());
    f.put("questions_failed", o.failed());
    f.put("questions_unanswered", o.unanswered());
    f.put("duplicate_answers", o.duplicates());
    f.put("query_ids_with_duplicates", o.queryIdsWithDuplicates());
  }

  private void printOutcome(String phase, Map<String, Object> f) {
    out.printf("%n%s: DDL changes lost %s (index chunks %s), questions unanswered %s of %s (answered %s, failed %s),"
            + " duplicate answer events %s, recovery %s%n%n", phase, f.get("ddl_changes_lost"), f.get("index_chunks"),
        f.get("questions_unanswered"), f.get("questions_published"), f.get("questions_answered"), f.get("questions_failed"),
        f.get("duplicate_answers"), f.getOrDefault("recovery_ms", "-"));
  }

  // ---------------------------------------------------------------- the checks

  /** The index against the truth once the load stopped. */
  record IndexCheck(int chunks, int mismatches, List<String> examples) {}

  /** Waits (up to the timeout) until every question has its outcome and the index equals the truth; returns the last check. */
  private IndexCheck settle(ChaosLoad load) throws Exception {
    out.println("load stopped; waiting for every question's outcome and for the index to equal the catalog");
    awaitOrTimeout(load::allOutcomesIn);
    out.println("questions: " + load.outcomes());
    Set<String> unanswered = load.unansweredIds();
    if (!unanswered.isEmpty()) {
      out.println("questions without an outcome, link by link:");
      UnansweredTrace.of(unanswered, topics, kafka, queryGroup, db).forEach(l -> out.println("  " + l));
    }
    IndexCheck[] last = {checkIndex()};
    awaitOrTimeout(() -> {
      last[0] = checkIndex();
      return last[0].mismatches() == 0;
    });
    if (last[0].mismatches() > 0) {
      out.println("index differs from the catalog truth in " + last[0].mismatches() + " chunks, e.g. " + last[0].examples());
    }
    return last[0];
  }

  private void awaitOrTimeout(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + settings.timeout().toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
  }

  private SchemaModel catalog() throws SQLException {
    return new PgCatalogReader(db, columnValues).read(SampleDatabase.DATABASE_ID, SampleDatabase.SCHEMAS);
  }

  /**
   * The stored chunks against {@code Chunker.chunkAll} over the catalog and the docs folder: a chunk
   * missing, left over, or with another embed text, prompt text, content hash or model id is one
   * mismatch.
   */
  IndexCheck checkIndex() {
    try {
      Map<String, String> truth = new HashMap<>();
      for (Chunk c : Chunker.chunkAll(catalog(), MarkdownDocParser.parseFolder(docsDir).docs())) {
        truth.put(c.id(), String.join("\u0000", c.embedText(), c.promptText(), c.contentHash(), modelId));
      }
      Map<String, String> stored = new HashMap<>();
      try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("SELECT id, embed_text, prompt_text, content_hash, model_id FROM "
          + PgChunkStore.SCHEMA + ".chunks WHERE database_id = ?")) {
        ps.setString(1, SampleDatabase.DATABASE_ID);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            stored.put(rs.getString(1), String.join("\u0000", rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
          }
        }
      }
      Set<String> ids = new HashSet<>(truth.keySet());
      ids.addAll(stored.keySet());
      List<String> differ = ids.stream().filter(id -> !java.util.Objects.equals(truth.get(id), stored.get(id))).sorted().toList();
      List<String> examples = differ.stream().limit(5)
          .map(id -> id + (truth.containsKey(id) ? stored.containsKey(id) ? " (differs)" : " (missing)" : " (left over)")).toList();
      return new IndexCheck(truth.size(), differ.size(), examples);
    } catch (SQLException | java.io.IOException e) {
      return new IndexCheck(-1, Integer.MAX_VALUE, List.of(e.getMessage()));
    }
  }

  // ---------------------------------------------------------------- two instances

  private Map<String, Object> twoInstances() throws Exception {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("topic_partitions", Map.of("requests", partitions(topics.requests().name())));
    try (ChaosLoad load = new ChaosLoad(db, catalog(), docsDir, topics, kafka, settings.seed() + 1)) {
      // Each figure after a burst that warms the JVMs up (a service started moments ago runs interpreted).
      burst(load);
      double one = burst(load);
      out.printf("throughput with 1 query service: %.2f questions/s (%d questions)%n", one, settings.burst());
      ProcessStack.Proc query2 = stack.addInstance(ProcessStack.QUERY, 2, settings.timeout(), out);
      ProcessStack.Proc indexer2 = stack.addInstance(ProcessStack.INDEXER, 2, settings.timeout(), out);
      List<ProcessStack.Proc> pair = List.of(ProcessStack.QUERY, query2, ProcessStack.INDEXER, indexer2);
      Map<String, Object> shared = awaitAssignment(pair);
      f.put("assigned_partitions_with_2", shared);
      out.println("assigned partitions per instance: " + shared);
      burst(load);
      double two = burst(load);
      out.printf("throughput with 2 query services: %.2f questions/s (%d questions)%n", two, settings.burst());
      f.put("throughput_qps", Map.of("1", round2(one), "2", round2(two)));
      f.put("burst_questions", settings.burst());
      int queryPartitions = sum(shared, ProcessStack.QUERY, query2);
      int indexerPartitions = sum(shared, ProcessStack.INDEXER, indexer2);

      // The survivor takes over: kill the first of each pair and start it again only once the other holds all its partitions.
      load.start(settings.changeEvery(), settings.askEvery(), QUESTION);
      Thread.sleep(settings.killGap().toMillis());
      long t0 = System.nanoTime();
      stack.kill(ProcessStack.QUERY);
      // Questions on every partition: those of the dead instance's partitions wait for the group to hand them over.
      List<String> asked = new ArrayList<>();
      for (int i = 0; i < 4 * queryPartitions; i++) {
        asked.add(load.ask(QUESTION));
      }
      long queryAssigned = awaitSurvivor(query2, queryPartitions, t0);
      awaitOrTimeout(() -> asked.stream().allMatch(load::hasOutcome));
      long queryAnswered = asked.stream().allMatch(load::hasOutcome) ? (System.nanoTime() - t0) / 1_000_000 : -1;
      out.printf("query-service killed: query-service-2 held all %d request partitions after %.1f s; the %d questions asked after the kill"
          + " had their outcomes after %.1f s%n", queryPartitions, queryAssigned / 1e3, asked.size(), queryAnswered / 1e3);
      f.put("query_takeover_ms", Map.of("all_partitions", queryAssigned, "all_questions_after_kill_answered", queryAnswered));

      t0 = System.nanoTime();
      stack.kill(ProcessStack.INDEXER);
      List<String> created = new ArrayList<>();
      try (Connection c = db.open(); java.sql.Statement s = c.createStatement()) {
        for (int i = 0; i < 2 * queryPartitions; i++) {
          String table = ChaosLoad.SCHEMA + ".chaos_takeover_" + i;
          s.execute("CREATE TABLE IF NOT EXISTS " + table + " (id int PRIMARY KEY)");
          created.add(table);
        }
      }
      long indexerAssigned = awaitSurvivor(indexer2, indexerPartitions, t0);
      awaitOrTimeout(() -> created.stream().allMatch(this::indexed));
      long indexed = created.stream().allMatch(this::indexed) ? (System.nanoTime() - t0) / 1_000_000 : -1;
      out.printf("indexer-service killed: indexer-service-2 held all %d partitions after %.1f s; the %d tables created after the kill"
          + " were indexed after %.1f s%n", indexerPartitions, indexerAssigned / 1e3, created.size(), indexed / 1e3);
      f.put("indexer_takeover_ms", Map.of("all_partitions", indexerAssigned, "all_tables_after_kill_indexed", indexed));
      f.put("assigned_partitions_after_kill", assignment(List.of(query2, indexer2)));

      t0 = System.nanoTime();
      List<String> restarted = stack.recover(settings.timeout(), out);
      f.put("restart_ms", (System.nanoTime() - t0) / 1_000_000);
      f.put("restarted", restarted);
      Thread.sleep(settings.killGap().toMillis());
      load.stop();
      IndexCheck check = settle(load);
      f.put("index_chunks", check.chunks());
      f.put("ddl_changes_lost", check.mismatches());
      f.put("changes_applied", load.applied());
      putOutcomes(f, load.outcomes());
      f.put("failures_by_class", load.failureClasses());
      f.put("assigned_partitions_after_restart", awaitAssignment(pair));
      printOutcome("two instances", f);
    }
    return f;
  }

  private static int sum(Map<String, Object> assigned, ProcessStack.Proc... procs) {
    int n = 0;
    for (ProcessStack.Proc p : procs) {
      n += assigned.get(p.name()) instanceof Integer i ? i : 0;
    }
    return n;
  }

  /** Milliseconds from {@code t0} until {@code survivor} holds {@code partitions} partitions, or -1 at the timeout. */
  private long awaitSurvivor(ProcessStack.Proc survivor, int partitions, long t0) throws InterruptedException {
    awaitOrTimeout(() -> assignment(List.of(survivor)).get(survivor.name()) instanceof Integer n && n >= partitions);
    return assignment(List.of(survivor)).get(survivor.name()) instanceof Integer n && n >= partitions ? (System.nanoTime() - t0) / 1_000_000 : -1;
  }

  /** Asks {@code burst} questions at once; questions per second from the first request until the last outcome. */
  private double burst(ChaosLoad load) throws InterruptedException {
    long t0 = System.nanoTime();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < settings.burst(); i++) {
      ids.add(load.ask(QUESTION));
    }
    awaitOrTimeout(() -> ids.stream().allMatch(load::hasOutcome));
    double s = (System.nanoTime() - t0) / 1e9;
    return ids.stream().filter(load::hasOutcome).count() / s;
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private boolean indexed(String table) {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT count(*) FROM " + PgChunkStore.SCHEMA + ".chunks WHERE database_id = ? AND table_name = ?")) {
      ps.setString(1, SampleDatabase.DATABASE_ID);
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    } catch (SQLException e) {
      return false;
    }
  }

  /** The reason of every record on the indexer's dead-letter topics (snapshots and docs), read committed. */
  private List<String> indexDeadLetters() {
    Map<String, Object> c = new HashMap<>(kafka);
    c.put(org.apache.kafka.clients.consumer.ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<String> reasons = new ArrayList<>();
    try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(c,
        new org.apache.kafka.common.serialization.ByteArrayDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      List<org.apache.kafka.common.TopicPartition> parts = new ArrayList<>();
      for (String topic : List.of(topics.dlq(topics.tables()).name(), topics.dlq(topics.docs()).name())) {
        consumer.partitionsFor(topic, Duration.ofSeconds(10)).forEach(i -> parts.add(new org.apache.kafka.common.TopicPartition(topic, i.partition())));
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<org.apache.kafka.common.TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(10));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read the dead-letter topics to their end within 60 s");
        }
        consumer.poll(Duration.ofMillis(200)).forEach(r -> {
          org.apache.kafka.common.header.Header h = r.headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER);
          reasons.add(h == null ? "(no reason)" : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8));
        });
      }
    }
    return reasons;
  }

  private int partitions(String topic) {
    try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(kafka)) {
      return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
    } catch (Exception e) {
      return -1;
    }
  }

  /** Until each instance of both pairs holds some partitions (a rebalance takes a few seconds), then what each holds. */
  private Map<String, Object> awaitAssignment(List<ProcessStack.Proc> procs) throws InterruptedException {
    Map<String, Object>[] last = new Map[] {Map.of()};
    awaitOrTimeout(() -> {
      last[0] = assignment(procs);
      return last[0].values().stream().allMatch(v -> v instanceof Integer n && n > 0);
    });
    return last[0];
  }

  /**
   * The partitions each instance's consumers hold, from its {@code /metrics}: the sum of
   * {@code kafka_consumer_coordinator_assigned_partitions} over its clients (the query service's
   * workers; the indexer's stream thread consumer, whose partitions are its tasks' inputs).
   */
  private Map<String, Object> assignment(List<ProcessStack.Proc> procs) {
    Properties state = stack.readState().orElseThrow();
    Map<String, Object> out = new LinkedHashMap<>();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    for (ProcessStack.Proc p : procs) {
      try {
        String text = http.send(HttpRequest.newBuilder(URI.create(state.getProperty(p.urlKey()) + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        out.put(p.name(), assignedPartitions(text));
      } catch (Exception e) {
        out.put(p.name(), "unreachable");
      }
    }
    return out;
  }

  /** The sum of the assigned-partitions gauges in a Prometheus text page. */
  static int assignedPartitions(String metrics) {
    double sum = 0;
    for (String line : metrics.split("\n")) {
      if (line.startsWith("kafka_consumer_coordinator_assigned_partitions{") || line.startsWith("kafka_consumer_coordinator_assigned_partitions ")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return (int) sum;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}
