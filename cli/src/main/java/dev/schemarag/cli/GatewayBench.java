package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.gateway.Gateway;
import dev.schemarag.gateway.GatewayCore;
import dev.schemarag.gateway.GatewaySettings;
import dev.schemarag.gateway.Outcome;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.query.QueryService;
import dev.schemarag.query.QueryServices;
import dev.schemarag.service.ServiceSettings;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./schemarag bench gateway}: the round trip of a question through the gateway's HTTP API and
 * its MCP server (Streamable HTTP, the MCP Java SDK's client), beside the raw Kafka round trip (the
 * gateway's own publish-and-correlate path without HTTP), at several concurrencies, over the same
 * stack as {@code bench answer}: the sample indexed live, the query service, a scripted model.
 */
@Command(name = "gateway", description = "Round trip of questions through the gateway (HTTP API, MCP) beside the raw Kafka round trip, at concurrency 1, 8 and 32.")
final class GatewayBench implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--questions", defaultValue = "100", description = "questions per path and concurrency (default ${DEFAULT-VALUE})")
  int questions;

  @Option(names = "--concurrency", split = ",", defaultValue = "1,8,32", description = "concurrent clients, comma-separated (default ${DEFAULT-VALUE})")
  List<Integer> levels;

  // The HTTP client, Jetty and the MCP SDK's reactive code run interpreted or half-compiled for their first
  // few hundred calls; uncounted warm-up makes the figures those of a gateway that has been up for a while.
  @Option(names = "--warm-up", defaultValue = "150", description = "uncounted questions per path first (JIT, connections, caches; default ${DEFAULT-VALUE})")
  int warmUp;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  /** One timed request: its latency, and whether it came back as an answer, a classified failure or an error. */
  private record Sample(int question, long micros, String outcome) {}

  private interface Asker {
    /** @return "answered", a failure class, or "error: ..." */
    String ask(String question) throws Exception;
  }

  @Override
  public Integer call() throws Exception {
    if (questions < 1 || levels.stream().anyMatch(c -> c < 1)) {
      throw new IllegalArgumentException("--questions and every --concurrency must be at least 1");
    }
    if (warmUp < 0) {
      throw new IllegalArgumentException("--warm-up must be 0 or more, was " + warmUp);
    }
    Main main = (Main) spec.parent().parent().userObject();
    SchemaragConfig base = main.config();
    try (SampleStack stack = SampleStack.open(base, "gateway-bench")) {
      ConnectionSource db = stack.db();
      Map<String, TableDoc> docs = stack.docs();
      List<SampleQuestions.Gold> gold = SampleQuestions.of(new PgCatalogReader(db).read(SampleDatabase.DATABASE_ID, SampleDatabase.SCHEMAS), docs);
      return run(stack.config(), db, stack.dbUrl(), stack.bootstrap(), gold);
    }
  }

  private Integer run(SchemaragConfig config, ConnectionSource db, String dbUrl, String bootstrap, List<SampleQuestions.Gold> gold)
      throws Exception {
    Map<String, String> sqlByQuestion = new LinkedHashMap<>();
    gold.forEach(g -> sqlByQuestion.put(g.question(), g.sql()));
    byte[] secret = new byte[24];
    new java.security.SecureRandom().nextBytes(secret);
    String token = HexFormat.of().formatHex(secret);
    try (ScriptedLlmServer llm = new ScriptedLlmServer(prompt -> AnswerBench.reply(prompt, sqlByQuestion))) {
      // Topics and a port of its own: a demo's query service and gateway are not part of the figures.
      SchemaragConfig bench = config.with(Map.of("topics.prefix", "schemarag-bench-gw", "query.group.id", "schemarag-bench-gateway",
          "llm.provider", "openai", "llm.base.url", llm.openAiUrl(), "llm.model", "scripted", "query.index.source", "store",
          "db.url", dbUrl)).with(Map.of("gateway.http.port", "0", "gateway.tokens", "bench:" + token, "gateway.rate.per.minute", "1000000",
          "gateway.answer.timeout.ms", "120000"));
      TopicCatalog topics = ServiceSettings.topics(bench);
      TopicAdmin.createMissing(bootstrap, topics.all());
      QueryService service = QueryServices.create(bench, db, dbUrl, topics, bootstrap);
      service.start(bench.getInt(ConfigKeys.QUERY_WORKERS));
      GatewayCore core = Gateway.core(bench, bootstrap, topics, GatewaySettings.from(bench));
      List<Map<String, Object>> runs = new ArrayList<>();
      Map<String, Object> overheadByLevel = new LinkedHashMap<>();
      try (Gateway gateway = Gateway.startHttp(core)) {
        URI base = gateway.baseUri();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Asker> paths = new LinkedHashMap<>();
        paths.put("kafka", question -> {
          Outcome o = core.bus().ask(event(question), Duration.ofSeconds(120));
          return o instanceof Outcome.Answered ? "answered" : ((Outcome.Failed) o).event().getErrorClass();
        });
        paths.put("http", question -> {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/questions"))
              .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(Map.of("question", question)))).build(),
              HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() == 200) {
            return "answered";
          }
          String type = mapper.readTree(r.body()).path("type").asText();
          return r.statusCode() == 422 ? type.substring(type.lastIndexOf('/') + 1) : "error: HTTP " + r.statusCode() + " " + type;
        });
        int maxLevel = Collections.max(levels);
        List<McpSyncClient> mcpClients = new ArrayList<>();
        for (int i = 0; i < maxLevel; i++) {
          McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder(base.toString())
              .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build())
              .requestTimeout(Duration.ofSeconds(120)).build();
          c.initialize();
          mcpClients.add(c);
        }
        // one MCP client (session) per benchmark client thread
        ThreadLocal<McpSyncClient> mine = new ThreadLocal<>();
        AtomicInteger nextClient = new AtomicInteger();
        paths.put("mcp", question -> {
          McpSyncClient c = mine.get();
          if (c == null) {
            c = mcpClients.get(nextClient.getAndIncrement() % mcpClients.size());
            mine.set(c);
          }
          CallToolResult r = c.callTool(new CallToolRequest("ask_database", Map.of("question", question)));
          if (!Boolean.TRUE.equals(r.isError())) {
            return "answered";
          }
          Object cls = r.structuredContent() instanceof Map<?, ?> m ? m.get("error_class") : null;
          return cls != null ? cls.toString() : "error: " + r.content();
        });
        try {
          List<String> names = new ArrayList<>(paths.keySet());
          List<Asker> askers = new ArrayList<>(paths.values());
          // uncounted warm-up: JIT, connections, the query service's caches
          interleaved(askers, 1, warmUp, gold, 0);
          int offset = warmUp;
          overheadByLevel.clear();
          for (int level : levels) {
            long t0 = System.nanoTime();
            List<List<Sample>> samples = interleaved(askers, level, questions, gold, offset);
            double seconds = (System.nanoTime() - t0) / 1e9;
            offset += questions;
            for (int i = 0; i < names.size(); i++) {
              Map<String, Object> fig = figures(names.get(i), level, samples.get(i));
              runs.add(fig);
              System.out.printf("%-5s c=%-3d p50 %6.1f ms  p95 %6.1f ms  answered %d  failed %d  errors %d%n", names.get(i), level,
                  fig.get("p50_ms"), fig.get("p95_ms"), fig.get("answered"), fig.get("failed"), fig.get("errors"));
            }
            System.out.printf("      c=%-3d %.1f questions/s over all paths%n", level, names.size() * questions / seconds);
            // each question went through every path back to back: the median of the differences per question
            // is the path's own cost, little disturbed by how long the question itself takes
            Map<String, Object> paired = new LinkedHashMap<>();
            for (int i = 1; i < names.size(); i++) {
              double d = pairedMedianMs(samples.get(0), samples.get(i));
              paired.put(names.get(i) + "_minus_" + names.get(0) + "_ms", d);
              System.out.printf("      c=%-3d %s adds %.1f ms (median of per-question differences to %s)%n", level, names.get(i), d, names.get(0));
            }
            overheadByLevel.put("c" + level, paired);
          }
        } finally {
          mcpClients.forEach(McpSyncClient::closeGracefully);
        }
      } finally {
        service.close();
      }
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("questions_per_run", questions);
      out.put("warm_up_per_path", warmUp);
      out.put("query_workers", bench.getInt(ConfigKeys.QUERY_WORKERS));
      out.put("runs", runs);
      out.put("gateway_overhead", overheadByLevel);
      String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out);
      System.out.println(text);
      if (json != null) {
        Files.writeString(json, text);
        System.out.println("written to " + json);
      }
      return 0;
    }
  }

  private static QuestionRequested event(String question) {
    return QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(SampleDatabase.DATABASE_ID)
        .setQuestion(question).setOptions(QuestionOptions.newBuilder().build()).setRequestedBy("bench")
        .setRequestedAtMs(System.currentTimeMillis()).build();
  }

  /**
   * {@code count} questions on every path by {@code concurrency} clients, each asking its next request as soon
   * as its last is back. The paths take turns on the same question, so load and drift on this shared
   * machine fall on all of them alike.
   */
  private static List<List<Sample>> interleaved(List<Asker> askers, int concurrency, int count, List<SampleQuestions.Gold> gold, int offset)
      throws Exception {
    int n = askers.size();
    AtomicInteger next = new AtomicInteger();
    List<List<Sample>> samples = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      samples.add(Collections.synchronizedList(new ArrayList<>()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(concurrency);
    try {
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < concurrency; c++) {
        clients.add(pool.submit(() -> {
          for (int k = next.getAndIncrement(); k < count * n; k = next.getAndIncrement()) {
            int question = k / n;
            // rotate which path goes first on a question
            int path = (k + question) % n;
            String q = gold.get(Math.floorMod(offset + question, gold.size())).question();
            long t0 = System.nanoTime();
            String outcome;
            try {
              outcome = askers.get(path).ask(q);
            } catch (Exception e) {
              outcome = "error: " + e;
            }
            samples.get(path).add(new Sample(question, (System.nanoTime() - t0) / 1_000, outcome));
          }
          return null;
        }));
      }
      for (Future<?> f : clients) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return samples;
  }

  private static Map<String, Object> figures(String path, int level, List<Sample> samples) {
    List<Long> micros = samples.stream().map(Sample::micros).toList();
    Map<String, Integer> outcomes = new LinkedHashMap<>();
    samples.forEach(s -> outcomes.merge(s.outcome().startsWith("error") ? "error" : s.outcome(), 1, Integer::sum));
    List<String> errors = samples.stream().map(Sample::outcome).filter(o -> o.startsWith("error")).distinct().limit(3).toList();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", path);
    m.put("concurrency", level);
    m.put("p50_ms", round(FreshnessBench.percentile(micros, 50) / 1000.0));
    m.put("p95_ms", round(FreshnessBench.percentile(micros, 95) / 1000.0));
    m.put("max_ms", round(Collections.max(micros) / 1000.0));
    m.put("answered", outcomes.getOrDefault("answered", 0));
    m.put("failed", samples.size() - outcomes.getOrDefault("answered", 0) - outcomes.getOrDefault("error", 0));
    m.put("errors", outcomes.getOrDefault("error", 0));
    m.put("outcomes", outcomes);
    if (!errors.isEmpty()) {
      m.put("first_errors", errors);
    }
    return m;
  }

  private static double pairedMedianMs(List<Sample> base, List<Sample> other) {
    Map<Integer, Long> byQuestion = new java.util.HashMap<>();
    base.forEach(s -> byQuestion.put(s.question(), s.micros()));
    List<Long> diffs = new ArrayList<>();
    other.forEach(s -> {
      Long b = byQuestion.get(s.question());
      if (b != null) {
        diffs.add(s.micros() - b);
      }
    });
    return diffs.isEmpty() ? Double.NaN : round(FreshnessBench.percentile(diffs, 50) / 1000.0);
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
