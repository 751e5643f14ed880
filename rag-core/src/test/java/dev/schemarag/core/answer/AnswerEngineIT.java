package dev.schemarag.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.retrieval.PacketTable;
import dev.schemarag.core.retrieval.PatternMatch;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.sql.ErrorClass;
import dev.schemarag.core.sql.ReadOnlyExecutor;
import dev.schemarag.core.sql.ReadOnlyRole;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TestInfra;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The answering loop against a real PostgreSQL, the read-only role and scripted LLM endpoints. */
@Tag("integration")
class AnswerEngineIT {

  private static String s;
  private static SchemaModel model;
  private static SchemaContextPacket packet;
  private static ConnectionSource reader;

  @BeforeAll
  static void setUp() throws Exception {
    String url = TestInfra.postgresUrl();
    ConnectionSource admin = ConnectionSource.of(url, null, null);
    s = SalesSchema.create(admin, "ans");
    ReadOnlyRole.ensure(admin, "schemarag_reader_it", "it-secret", List.of(s));
    reader = ConnectionSource.asRole(url, "schemarag_reader_it", "it-secret");
    model = new PgCatalogReader(admin).read("it", List.of(s));
    packet = new SchemaContextPacket("it", "q", model.tables().stream()
        .map(t -> new PacketTable(t.name(), Chunker.compactDdl(model, t), 1.0, "retrieval", t.module(), List.of(), 10)).toList(),
        model.foreignKeys(), List.of(), List.of(s), false, List.of(), Map.of(), Map.of(), List.of());
  }

  private static AnswerEngine engine(SqlGenerator g, int timeoutMs) {
    return new AnswerEngine(Optional.of(g), new ReadOnlyExecutor(reader, timeoutMs), model, Optional.empty(), AnswerEngine.Settings.DEFAULT);
  }

  private static SqlGenerator openAi(ScriptedLlmServer stub) {
    return Langchain4jSqlGenerator.create("openai", stub.openAiUrl(), "stub", "", Duration.ofSeconds(10));
  }

  private String correct() {
    return "Here you go:\n```sql\nSELECT c.name, sum(o.total) AS spent FROM " + s + ".customers c JOIN " + s
        + ".orders o ON o.customer_id = c.customer_id GROUP BY c.name ORDER BY spent DESC\n```";
  }

  @Test
  void correctSqlIsAnsweredInOneAttempt() throws Exception {
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying(correct())) {
      AnswerEngine.Result r = engine(openAi(stub), 5000).answer("Who spent the most?", packet, true);
      assertThat(r.answered()).as(r.message()).isTrue();
      assertThat(r.attempts()).hasSize(1);
      assertThat(r.rows().orElseThrow().preview().get(0)).containsExactly("Acme", "150");
      assertThat(r.tables()).containsExactlyInAnyOrder(s + ".customers", s + ".orders");
      assertThat(stub.requests().get(0)).contains(s + ".orders (order_id integer PK").contains("Who spent the most?");
    }
  }

  @Test
  void aWrongColumnIsRepairedWithTheTablesColumnsInTheSecondPrompt() throws Exception {
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying("SELECT o.totl FROM " + s + ".orders o", correct())) {
      AnswerEngine.Result r = engine(openAi(stub), 5000).answer("Who spent the most?", packet, true);
      assertThat(r.answered()).isTrue();
      assertThat(r.attempts()).hasSize(2);
      assertThat(r.attempts().get(0).sqlState()).contains("42703");
      assertThat(r.attempts().get(0).error()).contains(ErrorClass.SQL_ERROR);
      assertThat(stub.requests().get(1)).contains("Alias o is table " + s + ".orders")
          .contains("total numeric").contains("Closest by name to totl: total").contains("Choose only from these columns");
    }
  }

  @Test
  void aModelThatFindsNoAnswerInTheTablesFailsAsNoRelevantSchemaWithoutRepair() throws Exception {
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying("NO ANSWER: these tables hold customers and orders, not the weather.",
        correct())) {
      AnswerEngine.Result r = engine(openAi(stub), 5000).answer("What is the weather in Paris tomorrow?", packet, true);
      assertThat(r.answered()).isFalse();
      assertThat(r.error()).contains(ErrorClass.NO_RELEVANT_SCHEMA);
      assertThat(r.stage()).isEqualTo("generation");
      assertThat(r.sql()).isEmpty();
      assertThat(r.message()).contains(s + ".customers").contains("not the weather");
      assertThat(r.attempts()).hasSize(1);
      assertThat(r.attempts().get(0).error()).contains(ErrorClass.NO_RELEVANT_SCHEMA);
      assertThat(stub.requests()).hasSize(1);
      assertThat(stub.requests().get(0)).contains(SqlExtractor.DECLINE);
    }
  }

  @Test
  void deletesAndDataModifyingCtesAreBlockedWithoutRetry() throws Exception {
    for (String bad : List.of("DELETE FROM " + s + ".orders",
        "WITH d AS (DELETE FROM " + s + ".orders RETURNING *) SELECT count(*) FROM d",
        "CALL cleanup()", "SET statement_timeout = 0", "COPY " + s + ".orders TO PROGRAM 'true'",
        "DO $$ BEGIN DELETE FROM " + s + ".orders; END $$", "SELEC name FROM " + s + ".customers",
        "SELECT U&\"pg\\005fsleep\"(5)")) {
      try (ScriptedLlmServer stub = ScriptedLlmServer.replying("```sql\n" + bad + "\n```", correct())) {
        AnswerEngine.Result r = engine(openAi(stub), 5000).answer("Remove all orders", packet, true);
        assertThat(r.answered()).isFalse();
        assertThat(r.error()).as(bad).contains(ErrorClass.VALIDATION_BLOCK);
        assertThat(r.stage()).as(bad).isIn("guard", "lint");
        assertThat(r.attempts()).hasSize(1);
        assertThat(stub.requests()).hasSize(1);
      }
    }
  }

  @Test
  void aTimeoutIsRetriedOnceAskingForSomethingSimpler() throws Exception {
    String slow = "SELECT count(*) FROM generate_series(1, 2000000000) g";
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying(slow, "SELECT count(*) FROM " + s + ".orders")) {
      AnswerEngine.Result r = engine(openAi(stub), 300).answer("How many orders?", packet, true);
      assertThat(r.answered()).isTrue();
      assertThat(r.attempts()).hasSize(2);
      assertThat(r.attempts().get(0).error()).contains(ErrorClass.QUERY_TIMEOUT);
      assertThat(stub.requests().get(1)).contains("took too long");
    }
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying(slow, slow, slow)) {
      AnswerEngine.Result r = engine(openAi(stub), 300).answer("How many orders?", packet, true);
      assertThat(r.error()).contains(ErrorClass.QUERY_TIMEOUT);
      assertThat(r.attempts()).hasSize(2);
    }
  }

  @Test
  void lintErrorsGoToRepairWithoutSpendingAnExplain() throws Exception {
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying("SELECT o.order_id, FROM " + s + ".orders o", correct())) {
      AnswerEngine.Result r = engine(openAi(stub), 5000).answer("List orders", packet, true);
      assertThat(r.answered()).isTrue();
      assertThat(r.attempts().get(0).stage()).isEqualTo("lint");
      assertThat(r.attempts().get(0).explainOutcome()).isEmpty();
      assertThat(r.attempts().get(0).lintIssues()).anySatisfy(i -> assertThat(i).startsWith("trailing_comma_select"));
    }
  }

  @Test
  void anEndpointThatIsDownIsAnInfraFailureWithoutRetry() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    SqlGenerator down = Langchain4jSqlGenerator.create("openai", "http://127.0.0.1:" + port + "/v1", "stub", "", Duration.ofSeconds(3));
    AnswerEngine.Result r = engine(down, 5000).answer("Who spent the most?", packet, true);
    assertThat(r.error()).contains(ErrorClass.INFRA_FAILURE);
    assertThat(r.stage()).isEqualTo("generation");
    assertThat(r.attempts()).hasSize(1);
  }

  @Test
  void ollamaIsSpokenToo() throws Exception {
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying(correct())) {
      SqlGenerator ollama = Langchain4jSqlGenerator.create("ollama", stub.ollamaUrl(), "stub", null, Duration.ofSeconds(10));
      AnswerEngine.Result r = engine(ollama, 5000).answer("Who spent the most?", packet, true);
      assertThat(r.answered()).isTrue();
      assertThat(stub.requests()).hasSize(1);
    }
  }

  private static SchemaContextPacket withPattern(String sql, double similarity) {
    String prompt = "-- Order count (How many orders are there)\n" + sql;
    return new SchemaContextPacket(packet.databaseId(), packet.question(), packet.tables(), packet.fkEdges(), packet.joinPaths(),
        packet.modules(), false, List.of(), Map.of(), Map.of(),
        List.of(new PatternMatch(s + ".orders", "Order count", similarity, sql, prompt)));
  }

  private static AnswerEngine withoutModel() {
    return new AnswerEngine(Optional.empty(), new ReadOnlyExecutor(reader, 5000), model, Optional.empty(), AnswerEngine.Settings.DEFAULT);
  }

  @Test
  void withoutAModelAndNoCloseQueryPatternTheFailureIsGeneratorUnavailable() {
    for (SchemaContextPacket p : List.of(packet, withPattern("SELECT count(*) FROM " + s + ".orders", 0.55))) {
      AnswerEngine.Result r = withoutModel().answer("Who spent the most?", p, true);
      assertThat(r.error()).contains(ErrorClass.GENERATOR_UNAVAILABLE);
      assertThat(r.attempts()).isEmpty();
    }
  }

  @Test
  void withoutAModelACloselyMatchingDocumentedQueryIsReusedAsIsAndSaysSo() {
    AnswerEngine.Result r = withoutModel().answer("How many orders do we have?", withPattern("SELECT count(*) FROM " + s + ".orders", 0.82), true);
    assertThat(r.answered()).as(r.message()).isTrue();
    assertThat(r.sqlSource()).isEqualTo(AnswerEngine.SOURCE_PATTERN);
    assertThat(r.message()).contains("reused the documented query pattern 'Order count'").contains("no LLM is configured");
    assertThat(r.rows().orElseThrow().preview().get(0)).containsExactly("3");
    assertThat(r.attempts()).hasSize(1);
  }

  @Test
  void aDocumentedQueryThatWritesIsRefusedLikeAnyOther() {
    AnswerEngine.Result r = withoutModel().answer("How many orders do we have?", withPattern("DELETE FROM " + s + ".orders", 0.9), true);
    assertThat(r.answered()).isFalse();
    assertThat(r.error()).contains(ErrorClass.VALIDATION_BLOCK);
    assertThat(r.sqlSource()).isEqualTo(AnswerEngine.SOURCE_PATTERN);
    assertThat(r.rows()).isEmpty();
  }

  @Test
  void matchingQueryPatternsAreWorkedExamplesInThePrompt() throws Exception {
    try (ScriptedLlmServer stub = ScriptedLlmServer.replying("SELECT count(*) FROM " + s + ".orders")) {
      AnswerEngine.Result r = engine(openAi(stub), 5000).answer("How many orders?", withPattern("SELECT count(*) AS n FROM " + s + ".orders", 0.6), true);
      assertThat(r.sqlSource()).isEqualTo(AnswerEngine.SOURCE_LLM);
      assertThat(stub.requests().get(0)).contains("documented queries of these tables").contains("Order count (How many orders are there)");
    }
  }
}
