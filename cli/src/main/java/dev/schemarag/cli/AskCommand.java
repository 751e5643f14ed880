package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.service.ServiceSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag ask "question"}: publishes a question event and waits for its answer or
 * failure by query_id. Talks to the broker of kafka.bootstrap.servers, else to a running demo's or the stack of ./schemarag up.
 */
@Command(name = "ask", description = "Ask a question of a database: publishes the request, prints the SQL and a result table (or the classified failure).")
final class AskCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Parameters(index = "0", paramLabel = "QUESTION", description = "the question, in quotes")
  String question;

  @Option(names = "--db", description = "database id (default: the running demo's or up stack's, else the first of sources, else database.id)")
  String databaseId;

  @Option(names = "--json", description = "print the answer or failure event as JSON")
  boolean json;

  @Option(names = "--grounding-only", description = "retrieval only: the schema context for the question, no SQL")
  boolean groundingOnly;

  @Option(names = "--no-execute", description = "generate and guard the SQL but do not run it")
  boolean noExecute;

  @Option(names = "--top-k", description = "tables retrieved (default: the service's retrieval.top.k)")
  Integer topK;

  @Option(names = "--max-rows", description = "rows the query may return (default: the service's answer.max.rows; at most its answer.max.rows.limit)")
  Integer maxRows;

  @Option(names = "--as", paramLabel = "PRINCIPAL",
      description = "ask as this principal; the service's access policy maps it to a database role (default: access.default.principal)")
  String principal;

  @Option(names = "--group", paramLabel = "GROUP", description = "a group of the principal (repeatable), for access.groups")
  java.util.List<String> groups = new java.util.ArrayList<>();

  @Option(names = "--timeout", defaultValue = "120", description = "seconds to wait for the answer (default ${DEFAULT-VALUE})")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("the question is empty");
    }
    if (topK != null && topK < 1 || maxRows != null && maxRows < 1) {
      throw new IllegalArgumentException("--top-k and --max-rows must be at least 1");
    }
    SchemaragConfig config = main.config();
    Optional<Properties> demo = LocalStackState.at(config).running();
    String bootstrap = config.optional(ConfigKeys.KAFKA_BOOTSTRAP)
        .or(() -> demo.map(p -> p.getProperty("bootstrap.servers")))
        .orElseThrow(() -> new IllegalArgumentException("no broker to ask through: start ./schemarag demo or ./schemarag up, or set kafka.bootstrap.servers"
            + " (SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS) to the broker of a running query service"));
    String db = Optional.ofNullable(databaseId).or(() -> demo.map(p -> p.getProperty("database.id")))
        .orElse(SourceDatabases.of(config).get(0).id());
    if (config.optional(ConfigKeys.KAFKA_BOOTSTRAP).isEmpty() && demo.isPresent()) {
      awaitDemoQueryService(config);
    }
    QuestionRequested q = QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(db).setQuestion(question)
        .setOptions(QuestionOptions.newBuilder().setTopK(topK).setMaxRows(maxRows).setExecute(!noExecute).setGroundingOnly(groundingOnly).build())
        .setRequestedBy(principal == null || principal.isBlank() ? null : principal.trim()).setRequestedByGroups(groups)
        .setRequestedAtMs(System.currentTimeMillis()).build();
    try (QuestionClient client = new QuestionClient(ServiceSettings.topics(config), ServiceSettings.kafka(config, bootstrap))) {
      QuestionClient.Outcome o = client.ask(q, Duration.ofSeconds(timeoutSeconds));
      if (json) {
        System.out.println(o.answered().map(Object::toString).orElseGet(() -> o.failed().orElseThrow().toString()));
      } else {
        AnswerPrinter.print(o, System.out);
      }
      return o.answered().isPresent() ? 0 : 1;
    } catch (TimeoutException e) {
      System.err.println("schemarag: " + e.getMessage());
      return 3;
    }
  }

  /**
   * The demo's query service must be ready (its /health/ready) before the question goes out; while
   * the demo still indexes, its query service has no endpoint yet: wait for it within the timeout.
   */
  private void awaitDemoQueryService(SchemaragConfig config) throws InterruptedException {
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    long deadline = System.nanoTime() + timeout.toNanos();
    LocalStackState state = LocalStackState.at(config);
    Optional<String> url = state.running().map(p -> p.getProperty(DemoHealth.QUERY_URL));
    if (url.isEmpty()) {
      System.err.println("waiting for the demo to start its query service (it indexes first)");
    }
    while (url.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the demo did not start its query service within " + timeoutSeconds + " s");
      }
      if (state.running().isEmpty()) {
        throw new IllegalStateException("the demo stopped before its query service started");
      }
      Thread.sleep(250);
      url = state.running().map(p -> p.getProperty(DemoHealth.QUERY_URL));
    }
    try {
      ServiceHealth.awaitReady("query service", url.get(), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), System.err);
    } catch (TimeoutException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
