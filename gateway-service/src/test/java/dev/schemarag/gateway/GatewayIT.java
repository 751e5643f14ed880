package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.answer.SalesSchema;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.query.QueryService;
import dev.schemarag.query.QueryServices;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The gateway over the real stack: in-process broker, PostgreSQL, the query service answering with
 * a scripted OpenAI-protocol model; driven by the MCP Java SDK's own client over Streamable HTTP and
 * stdio (the gateway's main as a child JVM), and by java.net.http for the HTTP API.
 */
@Tag("integration")
class GatewayIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ALICE = "tok-alice-" + UUID.randomUUID();
  private static final String BOB = "tok-bob-" + UUID.randomUUID();

  private static String url;
  private static String schema;
  private static String databaseId;
  private static String bootstrap;
  private static String prefix;
  private static TopicCatalog topics;
  private static ScriptedLlmServer llm;
  private static QueryService service;
  private static Gateway gateway;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    url = TestInfra.postgresUrl();
    ConnectionSource admin = ConnectionSource.of(url, null, null);
    schema = SalesSchema.create(admin, "gw");
    databaseId = "gw-" + schema;
    String sql = "```sql\nSELECT count(*) AS orders FROM " + schema + ".orders\n```";
    llm = new ScriptedLlmServer(prompt -> sql);
    bootstrap = TestInfra.kafkaBootstrap();
    prefix = "gw" + UUID.randomUUID().toString().substring(0, 8);
    topics = new TopicCatalog(new TopicSettings(prefix, 1, (short) 1), new SerdeFactory(SerdeSettings.DEFAULT));
    TopicAdmin.createMissing(bootstrap, topics.all());
    service = QueryServices.create(config(Map.of()), admin, url, topics, bootstrap);
    service.start(2);
    gateway = startGateway(Map.of());
  }

  private static SchemaragConfig config(Map<String, String> extra) {
    Map<String, String> m = new HashMap<>(Map.of(
        "database.id", databaseId, "catalog.schemas", schema, "reader.role", "schemarag_reader_gw", "reader.password", "gw",
        "llm.base.url", llm.openAiUrl(), "llm.model", "stub", "query.group.id", prefix + "-query", "db.url", url,
        "gateway.http.port", "0", "gateway.tokens", "alice:" + ALICE + ",bob:" + BearerTokens.digestSpec(BOB)));
    m.put("gateway.max.body.bytes", "2048");
    m.put("question.max.chars", "300");
    m.put("gateway.rate.per.minute", "10000");
    m.putAll(extra);
    return SchemaragConfig.load(Optional.empty(), Map.of(), m);
  }

  private static Gateway startGateway(Map<String, String> extra) throws Exception {
    SchemaragConfig c = config(extra);
    return Gateway.startHttp(Gateway.core(c, bootstrap, topics, GatewaySettings.from(c)));
  }

  @AfterAll
  static void stop() {
    if (gateway != null) {
      gateway.close();
    }
    if (service != null) {
      service.close();
    }
    if (llm != null) {
      llm.close();
    }
  }

  // ---- MCP ----

  private static McpSyncClient httpClient(String token) {
    HttpClientStreamableHttpTransport t = HttpClientStreamableHttpTransport.builder(gateway.baseUri().toString())
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
    return McpClient.sync(t).requestTimeout(Duration.ofSeconds(90)).build();
  }

  private static CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
    return c.callTool(new CallToolRequest(tool, args));
  }

  private static String text(CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> structured(CallToolResult r) {
    return (Map<String, Object>) r.structuredContent();
  }

  /** Every MCP tool through a real client; the asker's principal rides on the request event. */
  private static void exerciseTools(McpSyncClient c) {
    c.initialize();
    List<McpSchema.Tool> tools = c.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name)
        .containsExactlyInAnyOrder("list_databases", "get_schema_context", "ask_database", "describe_table");
    assertThat(tools).allSatisfy(t -> {
      assertThat(t.annotations().readOnlyHint()).isTrue();
      assertThat(t.description()).hasSizeGreaterThan(60);
      assertThat(t.inputSchema()).containsEntry("type", "object");
    });

    CallToolResult dbs = call(c, "list_databases", Map.of());
    assertThat(text(dbs)).contains(databaseId).contains("2 tables");

    CallToolResult ctx = call(c, "get_schema_context", Map.of("question", "How many orders are there?"));
    assertThat(ctx.isError()).isFalse();
    assertThat(text(ctx)).contains(schema + ".orders");
    assertThat(structured(ctx).get("tables")).asList().contains(schema + ".orders");
    assertThat((String) structured(ctx).get("context")).contains("total");

    CallToolResult ans = call(c, "ask_database", Map.of("question", "How many orders are there?", "max_rows", 10));
    assertThat(ans.isError()).isFalse();
    assertThat(structured(ans).get("rows")).isEqualTo(List.of(List.of("3")));
    assertThat((String) structured(ans).get("sql")).contains(schema + ".orders");
    assertThat(text(ans)).contains("SELECT").contains("orders").contains("3");

    CallToolResult desc = call(c, "describe_table", Map.of("table", schema + ".orders"));
    assertThat(desc.isError()).isFalse();
    assertThat(text(desc)).contains("order_id").contains("customer_id").contains(schema + ".customers");
    assertThat(structured(desc).get("columns")).asList().hasSize(3);

    CallToolResult unknownDb = call(c, "ask_database", Map.of("question", "How many orders?", "database_id", "nope"));
    assertThat(unknownDb.isError()).isTrue();
    assertThat(text(unknownDb)).contains("unknown database 'nope'");

    assertThatThrownBy(() -> call(c, "ask_database", Map.of())).isInstanceOf(McpError.class).hasMessageContaining("'question' is required");
    assertThatThrownBy(() -> call(c, "describe_table", Map.of())).isInstanceOf(McpError.class).hasMessageContaining("'table' is required");
    assertThatThrownBy(() -> call(c, "drop_database", Map.of())).isInstanceOf(McpError.class).hasMessageContaining("Unknown tool");
    assertThatThrownBy(() -> call(c, "ask_database", Map.of("question", "x".repeat(301))))
        .isInstanceOf(McpError.class).hasMessageContaining("at most 300");
    String ansId = (String) structured(ans).get("query_id");
    assertThat(requestedBy(ansId)).isNotBlank();
  }

  @Test
  void mcpOverStreamableHttpServesEveryToolAndCarriesThePrincipal() {
    try (McpSyncClient c = httpClient(BOB)) {
      exerciseTools(c);
      CallToolResult ans = call(c, "ask_database", Map.of("question", "Count the orders"));
      assertThat(requestedBy((String) structured(ans).get("query_id"))).isEqualTo("bob");
    }
  }

  @Test
  void mcpWithoutAValidTokenIsRefused() throws Exception {
    try (McpSyncClient c = httpClient("wrong")) {
      assertThatThrownBy(c::initialize).isInstanceOf(RuntimeException.class);
    }
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(gateway.baseUri().resolve("/mcp"))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
  }

  @Test
  void mcpOverStdioFromTheGatewayMainAsAChildProcess() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ServerParameters params = ServerParameters.builder(java)
        .args("-Xmx256m", "-cp", System.getProperty("java.class.path"), GatewayMain.class.getName(), "--stdio")
        .env(Map.of("SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS", bootstrap, "SCHEMARAG_TOPICS_PREFIX", prefix, "SCHEMARAG_TOPICS_PARTITIONS", "1",
            "SCHEMARAG_DATABASE_ID", databaseId, "SCHEMARAG_CATALOG_SCHEMAS", schema, "SCHEMARAG_DB_URL", url,
            "SCHEMARAG_QUESTION_MAX_CHARS", "300"))
        .build();
    StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
    List<String> stderr = new ArrayList<>();
    transport.setStdErrorHandler(line -> {
      synchronized (stderr) {
        stderr.add(line);
      }
    });
    try (McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(90)).initializationTimeout(Duration.ofSeconds(90))
        .build()) {
      exerciseTools(c);
      CallToolResult ans = call(c, "ask_database", Map.of("question", "Count the orders"));
      assertThat(requestedBy((String) structured(ans).get("query_id"))).startsWith("mcp-stdio:");
    }
  }

  // ---- HTTP API ----

  private static HttpResponse<String> send(String method, String path, String token, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(gateway.baseUri().resolve(path)).timeout(Duration.ofSeconds(90));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    headers.forEach(b::header);
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String path, String token, String body) throws Exception {
    return send("POST", path, token, body, Map.of("Content-Type", "application/json"));
  }

  private static JsonNode problem(HttpResponse<String> r, int status, String type) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonNode p = JSON.readTree(r.body());
    assertThat(p.get("type").asText()).isEqualTo("/problems/" + type);
    assertThat(p.get("status").asInt()).isEqualTo(status);
    assertThat(p.get("detail").asText()).isNotBlank();
    return p;
  }

  @Test
  void questionsAreAnsweredSynchronouslyOrAsynchronouslyAndGroundingNeedsNoExecution() throws Exception {
    HttpResponse<String> r = post("/api/v1/questions", ALICE, "{\"question\": \"How many orders are there?\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode a = JSON.readTree(r.body());
    assertThat(a.get("status").asText()).isEqualTo("answered");
    assertThat(a.get("rows").get(0).get(0).asText()).isEqualTo("3");
    assertThat(requestedBy(a.get("query_id").asText())).isEqualTo("alice");

    HttpResponse<String> accepted = post("/api/v1/questions?async=true", ALICE, "{\"question\": \"How many orders are there?\"}");
    assertThat(accepted.statusCode()).isEqualTo(202);
    String id = JSON.readTree(accepted.body()).get("query_id").asText();
    assertThat(accepted.headers().firstValue("Location")).contains("/api/v1/questions/" + id);
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
        .until(() -> send("GET", "/api/v1/questions/" + id, ALICE, null, Map.of()).statusCode() == 200);
    JsonNode later = JSON.readTree(send("GET", "/api/v1/questions/" + id, ALICE, null, Map.of()).body());
    assertThat(later.get("query_id").asText()).isEqualTo(id);
    assertThat(later.get("rows").get(0).get(0).asText()).isEqualTo("3");

    HttpResponse<String> g = post("/api/v1/schema/grounding", BOB, "{\"question\": \"customers and their orders\"}");
    assertThat(g.statusCode()).as(g.body()).isEqualTo(200);
    JsonNode packet = JSON.readTree(g.body());
    assertThat(packet.get("context").asText()).contains(schema + ".orders");
    assertThat(packet.get("tables").toString()).contains(schema + ".customers");

    JsonNode dbs = JSON.readTree(send("GET", "/api/v1/databases", BOB, null, Map.of()).body());
    assertThat(dbs.at("/databases/0/database_id").asText()).isEqualTo(databaseId);
    problem(send("GET", "/api/v1/questions/never-asked", ALICE, null, Map.of()), 404, "unknown-query");
  }

  @Test
  void healthAndTheOpenApiDocumentNeedNoTokenEverythingElseDoes() throws Exception {
    assertThat(send("GET", "/health/live", null, null, Map.of()).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/health/ready", null, null, Map.of()).statusCode()).isEqualTo(200);
    HttpResponse<String> doc = send("GET", "/api/v1/openapi.json", null, null, Map.of());
    assertThat(JSON.readTree(doc.body()).get("openapi").asText()).startsWith("3.");
    problem(send("GET", "/api/v1/databases", null, null, Map.of()), 401, "unauthorized");
    problem(post("/api/v1/questions", "not-a-token", "{\"question\": \"q\"}"), 401, "unauthorized");
    problem(send("GET", "/api/v1/databases", ALICE, null, Map.of("Origin", "https://evil.example")), 403, "forbidden-origin");
    assertThat(send("GET", "/api/v1/databases", ALICE, null, Map.of("Origin", "http://localhost:6274")).statusCode()).isEqualTo(200);
    problem(send("DELETE", "/api/v1/questions", ALICE, null, Map.of()), 405, "method-not-allowed");
    problem(send("GET", "/api/v2/nothing", ALICE, null, Map.of()), 404, "not-found");
  }

  @Test
  void badInputIsAProblemNamingItAndNothingReachesKafka() throws Exception {
    long before = requestsEnd();
    problem(post("/api/v1/questions", ALICE, "{\"question\": "), 400, "malformed-json");
    problem(post("/api/v1/questions", ALICE, "{\"database_id\": \"x\"}"), 400, "missing-field");
    problem(post("/api/v1/questions", ALICE, "{\"question\": \"  \"}"), 400, "empty-question");
    JsonNode tooLong = problem(post("/api/v1/questions", ALICE, "{\"question\": \"" + "y".repeat(301) + "\"}"), 400, "question-too-long");
    assertThat(tooLong.get("detail").asText()).contains("301 characters; at most 300");
    problem(post("/api/v1/questions", ALICE, "{\"question\": \"" + "z".repeat(3000) + "\"}"), 413, "body-too-large");
    problem(post("/api/v1/questions", ALICE, "{\"question\": \"q\", \"top_k\": -1}"), 400, "invalid-field");
    JsonNode unknown = problem(post("/api/v1/questions", ALICE, "{\"question\": \"orders\", \"database_id\": \"nope\"}"), 404, "unknown_database");
    assertThat(unknown.get("error_class").asText()).isEqualTo("unknown_database");
    problem(post("/api/v1/questions?async=maybe", ALICE, "{\"question\": \"orders\"}"), 400, "invalid-parameter");
    assertThat(requestsEnd()).isEqualTo(before);
  }

  @Test
  void theQueryServiceItselfFailsAnUnknownDatabaseAsUnknownDatabase() throws Exception {
    // Past the gateway's own check (as the CLI or any producer would send it): the service classifies it.
    QuestionRequested q = QuestionInput.of("How many orders?", Optional.empty(), Optional.empty(), Optional.empty(), true, false, 4000)
        .toEvent("no-such-db", "it");
    Outcome o = gatewayBus().ask(q, Duration.ofSeconds(60));
    assertThat(o).isInstanceOfSatisfying(Outcome.Failed.class, f -> {
      assertThat(f.event().getErrorClass()).isEqualTo("unknown_database");
      assertThat(f.event().getMessage()).contains("unknown database 'no-such-db'");
    });
  }

  @Test
  void aSlowAnswerTimesOutWithItsQueryIdAndTheRateLimitAnswers429() throws Exception {
    try (Gateway slow = startGateway(Map.of("gateway.answer.timeout.ms", "1", "gateway.rate.per.minute", "2"))) {
      HttpRequest.Builder b = HttpRequest.newBuilder(slow.baseUri().resolve("/api/v1/questions")).header("Authorization", "Bearer " + ALICE)
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"How many orders are there?\"}"));
      HttpResponse<String> timedOut = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode p = problem(timedOut, 504, "answer-timeout");
      String id = p.get("query_id").asText();
      assertThat(p.get("detail").asText()).contains(id);
      await().atMost(Duration.ofSeconds(60)).until(() -> slow.core().bus().status(id) instanceof PendingAnswers.Status.Done);
      HttpResponse<String> later = HTTP.send(HttpRequest.newBuilder(slow.baseUri().resolve("/api/v1/questions/" + id))
          .header("Authorization", "Bearer " + ALICE).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(later.statusCode()).isEqualTo(200);
      HttpResponse<String> limited = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      problem(limited, 429, "rate-limited");
      assertThat(limited.headers().firstValue("Retry-After")).isPresent();
    }
  }

  private static QuestionBus gatewayBus() {
    return gateway.core().bus();
  }

  /** The end offset of the requests topic: what has been published so far. */
  private static long requestsEnd() {
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition tp = new TopicPartition(topics.requests().name(), 0);
      return c.endOffsets(List.of(tp)).get(tp);
    }
  }

  @Test
  void anUndecodableOutcomeGoesToItsDlqWithTheReasonAndQuestionsAreStillAnswered() throws Exception {
    try (var p = new org.apache.kafka.clients.producer.KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", bootstrap),
        new org.apache.kafka.common.serialization.ByteArraySerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())) {
      p.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.results().name(), "k".getBytes(StandardCharsets.UTF_8),
          "not an answer".getBytes(StandardCharsets.UTF_8))).get();
    }
    String dlq = topics.dlq(topics.results()).name();
    TopicPartition tp = new TopicPartition(dlq, 0);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
          new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        c.assign(List.of(tp));
        c.seekToBeginning(List.of(tp));
        var records = c.poll(Duration.ofSeconds(2)).records(tp);
        assertThat(records).isNotEmpty();
        assertThat(new String(records.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("not an answer");
        assertThat(new String(records.get(0).headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
            .contains("undecodable outcome");
      }
    });
    HttpResponse<String> r = post("/api/v1/questions", ALICE, "{\"question\": \"How many orders are there?\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  /** requested_by of the published request with this query_id. */
  private static String requestedBy(String queryId) {
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition tp = new TopicPartition(topics.requests().name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long end = c.endOffsets(List.of(tp)).get(tp);
      var t = topics.requests();
      while (c.position(tp) < end) {
        for (var r : c.poll(Duration.ofMillis(200))) {
          QuestionRequested q = t.valueSerde().deserializer().deserialize(t.name(), r.value());
          if (q.getQueryId().equals(queryId)) {
            return q.getRequestedBy();
          }
        }
      }
    }
    throw new AssertionError("no request " + queryId + " on " + topics.requests().name());
  }

}
