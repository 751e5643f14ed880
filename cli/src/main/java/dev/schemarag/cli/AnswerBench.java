package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.query.QueryService;
import dev.schemarag.query.QueryServices;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./schemarag bench answer}: end-to-end latency of questions through the query service. The
 * sample ERP database is indexed live (the running demo's, or a stack of its own); a scripted
 * OpenAI-protocol endpoint replies to each prompt with the SQL of its question, so the figures are
 * schemarag's own: request event, retrieval, generation round trip, guard, lint, EXPLAIN,
 * execution, answer event.
 */
@Command(name = "answer", description = "End-to-end latency of questions (retrieval, generation with a scripted LLM, guard, EXPLAIN, execution).")
final class AnswerBench implements Callable<Integer> {

  private static final int WARM_UP = 10;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--questions", defaultValue = "200", description = "questions to time (default ${DEFAULT-VALUE})")
  int questions;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  @Option(names = "--burst", defaultValue = "0",
      description = "after the timed questions, publish this many at once (the sample's questions over and over) and time each to its outcome")
  int burst;

  @Override
  public Integer call() throws Exception {
    if (questions < 1) {
      throw new IllegalArgumentException("--questions must be at least 1, not " + questions);
    }
    Main main = (Main) spec.parent().parent().userObject();
    SchemaragConfig base = main.config();
    try (SampleStack stack = SampleStack.open(base, "answer-bench")) {
      SchemaModel model = new PgCatalogReader(stack.db()).read(SampleDatabase.DATABASE_ID, SampleDatabase.SCHEMAS);
      List<SampleQuestions.Gold> all = SampleQuestions.of(model, stack.docs());
      if (all.size() < questions + WARM_UP) {
        throw new IllegalArgumentException("the sample gives " + all.size() + " questions; ask for at most " + (all.size() - WARM_UP));
      }
      return run(stack.config(), stack.db(), stack.dbUrl(), stack.bootstrap(), all.subList(0, questions + WARM_UP));
    }
  }

  private Integer run(SchemaragConfig config, ConnectionSource db, String dbUrl, String bootstrap, List<SampleQuestions.Gold> gold)
      throws Exception {
    Map<String, String> sqlByQuestion = new LinkedHashMap<>();
    gold.forEach(g -> sqlByQuestion.put(g.question(), g.sql()));
    try (ScriptedLlmServer llm = new ScriptedLlmServer(prompt -> reply(prompt, sqlByQuestion))) {
      // Topics of its own: a demo's query service must not answer the benchmark's questions.
      SchemaragConfig bench = config.with(Map.of("topics.prefix", "schemarag-bench", "query.group.id", "schemarag-bench-answer",
          "llm.provider", "openai", "llm.base.url", llm.openAiUrl(), "llm.model", "scripted", "query.index.source", "store"));
      TopicCatalog topics = ServiceSettings.topics(bench);
      TopicAdmin.createMissing(bootstrap, topics.all());
      QueryService service = QueryServices.create(bench, db, dbUrl, topics, bootstrap);
      service.start(1);
      List<Long> e2e = new ArrayList<>();
      Map<String, Object> burstFigures = null;
      Map<String, List<Long>> stages = new LinkedHashMap<>();
      Map<String, Integer> outcomes = new LinkedHashMap<>();
      Map<String, int[]> byKind = new LinkedHashMap<>();
      try (QuestionClient client = new QuestionClient(topics, ServiceSettings.kafka(bench, bootstrap));
           ProgressBar bar = new ProgressBarBuilder().setTaskName("questions").setInitialMax(gold.size()).build()) {
        for (int i = 0; i < gold.size(); i++) {
          SampleQuestions.Gold g = gold.get(i);
          QuestionRequested q = QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(SampleDatabase.DATABASE_ID)
              .setQuestion(g.question()).setOptions(QuestionOptions.newBuilder().build()).setRequestedBy("bench")
              .setRequestedAtMs(System.currentTimeMillis()).build();
          QuestionClient.Outcome o = client.ask(q, Duration.ofSeconds(120));
          bar.step();
          if (i < WARM_UP) {
            continue;
          }
          e2e.add(o.roundTripMs());
          String outcome = o.answered().map(a -> "answered").orElseGet(() -> o.failed().orElseThrow().getErrorClass().toString());
          outcomes.merge(outcome, 1, Integer::sum);
          int[] k = byKind.computeIfAbsent(g.kind(), x -> new int[2]);
          k[0]++;
          if (o.answered().isPresent()) {
            k[1]++;
            QueryAnswered a = o.answered().get();
            a.getTimingsMs().forEach((stage, ms) -> stages.computeIfAbsent(stage.toString(), x -> new ArrayList<>()).add(ms));
          }
        }
        if (burst > 0) {
          burstFigures = burst(client, gold.subList(WARM_UP, gold.size()), burst);
        }
      } finally {
        service.close();
      }
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("questions", e2e.size());
      figures.put("outcomes", outcomes);
      Map<String, Long> roundTrip = percentiles(e2e);
      roundTrip.put("max", java.util.Collections.max(e2e));
      figures.put("e2e_ms", roundTrip);
      Map<String, Object> byStage = new LinkedHashMap<>();
      stages.forEach((stage, v) -> byStage.put(stage, percentiles(v)));
      figures.put("service_ms", byStage);
      Map<String, Object> kinds = new LinkedHashMap<>();
      byKind.forEach((kind, k) -> kinds.put(kind, new LinkedHashMap<>(Map.of("questions", k[0], "answered", k[1]))));
      figures.put("by_kind", kinds);
      if (burstFigures != null) {
        figures.put("burst", burstFigures);
      }
      String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures);
      System.out.println(text);
      if (json != null) {
        Files.writeString(json, text);
        System.out.println("written to " + json);
      }
      return 0;
    }
  }

  /**
   * {@code n} questions published at once: how long each took to its outcome, how many got none,
   * and the JVM's heap (the query service runs in it) sampled every 50 ms while they were answered.
   */
  private static Map<String, Object> burst(QuestionClient client, List<SampleQuestions.Gold> gold, int n) throws Exception {
    List<QuestionRequested> qs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      qs.add(QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(SampleDatabase.DATABASE_ID)
          .setQuestion(gold.get(i % gold.size()).question()).setOptions(QuestionOptions.newBuilder().build()).setRequestedBy("bench")
          .setRequestedAtMs(System.currentTimeMillis()).build());
    }
    java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
    System.gc();
    long before = memory.getHeapMemoryUsage().getUsed();
    java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong(before);
    java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max), 0, 50,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    long t0 = System.nanoTime();
    Map<String, QuestionClient.Outcome> outcomes;
    try {
      outcomes = client.burst(qs, Duration.ofMinutes(10));
    } finally {
      sampler.shutdownNow();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.gc();
    List<Long> ms = outcomes.values().stream().map(QuestionClient.Outcome::roundTripMs).toList();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("questions", n);
    m.put("with_outcome", outcomes.size());
    m.put("without_outcome", n - outcomes.size());
    m.put("answered", outcomes.values().stream().filter(o -> o.answered().isPresent()).count());
    m.put("seconds", Math.round(seconds * 10) / 10.0);
    m.put("questions_per_s", Math.round(outcomes.size() / seconds * 10) / 10.0);
    Map<String, Long> lat = percentiles(new ArrayList<>(ms));
    lat.put("max", ms.isEmpty() ? 0L : java.util.Collections.max(ms));
    m.put("e2e_ms", lat);
    m.put("heap_mb_before", before >> 20);
    m.put("heap_mb_peak", peak.get() >> 20);
    m.put("heap_mb_after_gc", memory.getHeapMemoryUsage().getUsed() >> 20);
    m.put("heap_mb_max", memory.getHeapMemoryUsage().getMax() >> 20);
    System.out.printf("burst of %d: %d outcomes in %.1f s, p50 %d ms, p95 %d ms; heap %d MB before, %d MB peak, %d MB after GC%n", n,
        outcomes.size(), seconds, lat.get("p50"), lat.get("p95"), before >> 20, peak.get() >> 20, memory.getHeapMemoryUsage().getUsed() >> 20);
    return m;
  }

  private static Map<String, Long> percentiles(List<Long> values) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("p50", FreshnessBench.percentile(values, 50));
    m.put("p95", FreshnessBench.percentile(values, 95));
    return m;
  }

  /** The scripted model: the SQL of the question the prompt asks. */
  static String reply(String prompt, Map<String, String> sqlByQuestion) {
    return prompt.lines().filter(l -> l.startsWith("Question: ")).findFirst()
        .map(l -> sqlByQuestion.get(l.substring("Question: ".length()).strip()))
        .map(sql -> "```sql\n" + sql + "\n```").orElse("I do not know that question.");
  }

  /** Docs reach the index shortly after their tables: waits until every documented query is stored. */
  static void awaitPatterns(ConnectionSource db, long expected, Duration timeout) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long stored = 0;
    while (System.nanoTime() < deadline) {
      try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
          "SELECT count(*) FROM " + PgChunkStore.SCHEMA + ".chunks WHERE database_id = ? AND kind = ?")) {
        ps.setString(1, SampleDatabase.DATABASE_ID);
        ps.setString(2, ChunkKind.QUERY.label());
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          stored = rs.getLong(1);
        }
      }
      if (stored >= expected) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("only " + stored + " of " + expected + " documented queries were indexed within " + timeout.toSeconds() + " s");
  }
}
