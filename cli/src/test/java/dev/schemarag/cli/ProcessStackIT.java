package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.LocalPostgres;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.service.ServiceSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code up}, {@code status}, a question through the stack, {@code down}: the real processes, run
 * from the distributions the reactor packaged (the broker, PostgreSQL through scripts/local-pg.sh,
 * four service JVMs), on free ports, with a scripted model.
 */
@Tag("integration")
class ProcessStackIT {

  private static final String COUNT_SQL = "SELECT count(*) AS customers FROM sales.customers";

  @TempDir Path localDir;
  private final String pgName = "stack-it-" + ProcessHandle.current().pid();
  private ProcessStack stack;

  @AfterEach
  void downEvenWhenATestFailed() {
    if (stack != null) {
      stack.down(Duration.ofSeconds(20), System.out);
    }
  }

  @Test
  void upRunsEveryProcessReadyAnswersAQuestionAndDownLeavesNothingRunning() throws Exception {
    try (ScriptedLlmServer model = new ScriptedLlmServer(prompt -> "```sql\n" + COUNT_SQL + "\n```")) {
      Map<String, String> settings = new HashMap<>(Map.of("local.dir", localDir.toString(),
          "ingest.http.port", "0", "indexer.http.port", "0", "query.http.port", "0", "gateway.http.port", "0",
          "llm.base.url", model.openAiUrl(), "llm.model", "scripted"));
      // the environment of this JVM (a test cluster's SCHEMARAG_DB_URL) is not the stack's
      SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), settings);
      Path home = Path.of("..").toAbsolutePath().normalize();
      stack = new ProcessStack(ProcessStack.stackDir(localDir), home);

      stack.up(config, new ProcessStack.UpOptions(pgName, false, Duration.ofMinutes(5)), System.out);

      List<ProcessStack.ProcStatus> status = stack.status();
      assertThat(status).extracting(ProcessStack.ProcStatus::proc).containsExactlyElementsOf(ProcessStack.ALL);
      assertThat(status).allSatisfy(s -> {
        assertThat(s.alive()).as("%s alive", s.proc().name()).isTrue();
        assertThat(s.notReady()).as("%s ready", s.proc().name()).isEmpty();
        assertThat(Files.readString(stack.logFile(s.proc()))).as("%s log", s.proc().name()).isNotBlank();
      });
      // The native libraries a service unpacks go to its own temp folder, not the system's.
      try (var unpacked = Files.list(stack.tmpDir(ProcessStack.QUERY))) {
        assertThat(unpacked.map(f -> f.getFileName().toString())).as("query-service temp folder").anyMatch(n -> n.startsWith("onnxruntime-java"));
      }
      List<Long> pids = status.stream().map(s -> s.pid().getAsLong()).toList();
      assertThat(pids).doesNotHaveDuplicates().doesNotContain(ProcessHandle.current().pid());
      assertThat(stack.printStatus(System.out)).isTrue();

      // a second up starts nothing
      stack.up(config, new ProcessStack.UpOptions(pgName, false, Duration.ofMinutes(1)), System.out);
      assertThat(stack.status().stream().map(s -> s.pid().getAsLong()).toList()).isEqualTo(pids);

      // ask finds the stack as it finds a demo
      Properties running = new LocalStackState(localDir).running().orElseThrow();
      String bootstrap = running.getProperty("bootstrap.servers");
      long customers;
      long european;
      try (Connection c = ConnectionSource.of(running.getProperty("db.url"), "", "").open();
           Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE region_id IN"
               + " (SELECT region_id FROM sales.sales_regions WHERE name <> 'North America')) FROM sales.customers")) {
        rs.next();
        customers = rs.getLong(1);
        european = rs.getLong(2);
      }
      try (QuestionClient client = new QuestionClient(ServiceSettings.topics(config), ServiceSettings.kafka(config, bootstrap))) {
        QuestionRequested q = QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId("erp")
            .setQuestion("How many customers are there?").setOptions(QuestionOptions.newBuilder().build())
            .setRequestedAtMs(System.currentTimeMillis()).build();
        QuestionClient.Outcome o = client.ask(q, Duration.ofSeconds(120));
        assertThat(o.failed()).isEmpty();
        QueryAnswered a = o.answered().orElseThrow();
        assertThat(a.getSql()).contains("sales.customers");
        assertThat(a.getRowCount()).isEqualTo(1);
        assertThat(a.getRowsPreview().get(0).get(0).toString()).isEqualTo(Long.toString(customers));
        assertThat(a.getRequestedBy()).as("the default principal").isEqualTo("local");

        // The sample's sales analyst: the same SQL under its role, whose row-level security keeps the European customers.
        QuestionClient.Outcome ao = client.ask(QuestionRequested.newBuilder(q).setQueryId(UUID.randomUUID().toString())
            .setRequestedBy("sales_analyst").build(), Duration.ofSeconds(120));
        assertThat(ao.failed()).as("the analyst's question").isEmpty();
        QueryAnswered analyst = ao.answered().orElseThrow();
        assertThat(analyst.getRunAsRole()).isEqualTo("sales_analyst");
        assertThat(analyst.getRowsPreview().get(0).get(0).toString()).isEqualTo(Long.toString(european)).isNotEqualTo(Long.toString(customers));
      }

      // and the gateway answers with the token up made
      String token = Files.readString(Path.of(running.getProperty("gateway.token.file"))).strip();
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(running.getProperty("gateway.url") + "/api/v1/questions"))
          .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"How many customers are there?\"}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).contains("\"status\":\"answered\"", "sales.customers");

      String said = stack.down(Duration.ofSeconds(30), System.out);
      stack = null;
      assertThat(said).contains("nothing left running");
      for (long pid : pids) {
        assertThat(ProcessHandle.of(pid).filter(ProcessStack::running)).as("process %d after down", pid).isEmpty();
      }
      assertThat(new LocalPostgres(pgName).running()).isFalse();
      assertThat(new LocalStackState(localDir).running()).isEmpty();
      assertThat(ProcessStack.ALL).allSatisfy(p -> assertThat(Files.exists(new ProcessStack(ProcessStack.stackDir(localDir), home).pidFile(p))).isFalse());
    }
  }
}
