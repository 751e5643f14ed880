package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.gateway.Gateway;
import dev.schemarag.gateway.GatewaySettings;
import dev.schemarag.query.QueryService;
import dev.schemarag.query.QueryServices;
import dev.schemarag.service.ServiceSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag demo}: the whole pipeline on this machine. Starts PostgreSQL + pgvector and a
 * broker, loads the sample ERP database, indexes it live (ingest + indexer), applies a migration
 * and a doc edit and shows what each re-indexed, then runs until Ctrl-C or {@code demo --stop}.
 */
@Command(name = "demo", description = "Run the embedded default: local PostgreSQL + pgvector, a KRaft broker, the sample ERP database indexed live; Ctrl-C stops it.")
final class DemoCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--stop", description = "stop a demo running in another terminal and everything it started")
  boolean stop;

  @Option(names = "--load-sample", description = "load the sample into a database given by db.url too (drops and recreates schemas hr, sales, finance, inventory, procurement, support)")
  boolean loadSample;

  @Override
  public Integer call() throws Exception {
    SchemaragConfig base = main.config();
    LocalStackState state = LocalStackState.at(base);
    if (stop) {
      System.out.println(LocalStack.stopRunning(state));
      return 0;
    }
    if (ProcessStack.runsIn(state.dir())) {
      throw new IllegalArgumentException("a stack of ./schemarag up runs (its services hold the health and gateway ports); stop it with ./schemarag down");
    }
    boolean ownDatabase = base.optional(ConfigKeys.DB_URL).isPresent();
    Path docsRoot = state.dir().resolve("docs");
    SchemaragConfig config = ownDatabase && !loadSample ? base : SampleDatabase.withAccessPolicy(base.with(Map.of(
        "database.id", SampleDatabase.DATABASE_ID, "catalog.schemas", SampleDatabase.schemasCsv(),
        "docs.root", docsRoot.toString(), "indexer.state.dir", state.dir().resolve("streams").toString())), "demo");
    LocalStack stack = LocalStack.start(config, state, System.out);
    if (stack.freshBroker()) {
      // State stores of an earlier run describe changelogs this new broker does not have: start them empty too.
      dev.schemarag.infra.Files2.deleteTree(state.dir().resolve("streams"));
    }
    CountDownLatch stopped = new CountDownLatch(1);
    LivePipeline[] pipeline = new LivePipeline[1];
    QueryService[] queries = new QueryService[1];
    DemoHealth health = new DemoHealth(config, stack.bootstrapServers, state);
    Gateway[] gateway = new Gateway[1];
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("\nschemarag demo: stopping ...");
      if (gateway[0] != null) {
        gateway[0].close();
      }
      if (queries[0] != null) {
        queries[0].close();
      }
      if (pipeline[0] != null) {
        pipeline[0].close();
      }
      health.close();
      stack.close();
      System.out.println("schemarag demo: stopped, nothing left running.");
      stopped.countDown();
    }, "demo-stop"));

    ConnectionSource db = ConnectionSource.of(stack.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
    if (!ownDatabase || loadSample) {
      long t0 = System.nanoTime();
      SampleDatabase.loadWithDocs(db, SampleDatabase.DEFAULT_DIR, docsRoot);
      System.out.printf("sample ERP database loaded in %.1f s (schemas %s)%n", (System.nanoTime() - t0) / 1e9, SampleDatabase.schemasCsv());
    }
    String databaseId = config.get(ConfigKeys.DATABASE_ID);
    int tables = new PgCatalogReader(db).read(databaseId, dev.schemarag.service.ServiceSettings.schemas(config)).size();

    BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
    long t0 = System.nanoTime();
    pipeline[0] = LivePipeline.start(config, stack.dbUrl, stack.bootstrapServers, updates::add, health.indexerMetrics.registry(),
        health.ingestMetrics.registry());
    health.serveIndexing(pipeline[0], db, System.out);
    LivePipeline.InitialIndex initial = LivePipeline.awaitTables(updates, tables, t0);
    System.out.printf("initial index: %d tables, %d chunks written (%d embedded, the rest from the embedding cache) in %.1f s: %.0f chunks/s%n",
        initial.tables(), initial.chunks(), initial.embedded(), initial.seconds(), initial.chunks() / initial.seconds());
    // Docs arrive shortly after their tables; let their updates land before the migration.
    drain(updates, Duration.ofSeconds(2));

    if (!ownDatabase || loadSample) {
      System.out.println("\nlive migration (each line: the index update it caused, with its lag and re-embed count)");
      step(db, updates, "ALTER TABLE sales.customers ADD COLUMN loyalty_tier text", "sales.customers");
      step(db, updates, "COMMENT ON COLUMN sales.customers.loyalty_tier IS 'Bronze, silver or gold loyalty status from yearly revenue'",
          "sales.customers");
      Path doc = docsRoot.resolve(SampleDatabase.DATABASE_ID).resolve("docs").resolve("support.tickets.md");
      String before = Files.readString(doc, StandardCharsets.UTF_8);
      System.out.println("  doc edit: support.tickets.md, priority domain gains 'critical'");
      Files.writeString(doc, before.replace("- Domain: low, normal, high, urgent", "- Domain: low, normal, high, urgent, critical"),
          StandardCharsets.UTF_8);
      print(await(updates, "support.tickets"));
      step(db, updates, "DROP TABLE support.ticket_article_links", "support.ticket_article_links");
    }

    queries[0] = QueryServices.create(config, db, stack.dbUrl, stack.catalog, stack.bootstrapServers);
    queries[0].start(config.getInt(ConfigKeys.QUERY_WORKERS), health.queryMetrics.registry());
    health.serveQuery(() -> queries[0], db, System.out);
    if (!ownDatabase || loadSample) {
      askSampleQuestions(config, stack);
    }

    gateway[0] = startGateway(config, stack);

    System.out.println("\nReady. Ask your own from another terminal, e.g.");
    System.out.println("  ./schemarag ask \"Which customers owe us money past the due date?\"");
    System.out.println("Ctrl-C (or ./schemarag demo --stop in another terminal) stops everything.");
    stopped.await();
    return 0;
  }

  /**
   * The gateway (HTTP API and MCP) over the demo's stack. Without configured gateway.tokens it makes
   * one for the principal {@code demo} and prints it; a gateway that cannot start leaves the demo running.
   */
  private static Gateway startGateway(SchemaragConfig config, LocalStack stack) {
    String token = null;
    // the catalog describe_table reads: the demo's database
    SchemaragConfig c = config.with(Map.of("db.url", stack.dbUrl));
    if (config.get(ConfigKeys.GATEWAY_TOKENS).isBlank()) {
      byte[] b = new byte[24];
      new java.security.SecureRandom().nextBytes(b);
      token = java.util.HexFormat.of().formatHex(b);
      c = c.with(Map.of("gateway.tokens", "demo:" + token));
    }
    try {
      Gateway g = Gateway.startHttp(Gateway.core(c, stack.bootstrapServers, stack.catalog, GatewaySettings.from(c)));
      String base = g.baseUri().toString();
      System.out.println("\ngateway (HTTP API and MCP over Streamable HTTP):");
      System.out.println("  MCP      " + base + "/mcp");
      System.out.println("  OpenAPI  " + base + "/api/v1/openapi.json");
      System.out.println("  token    " + (token != null ? token + "   (principal demo; new each run)" : "one of your gateway.tokens"));
      System.out.println("  curl -s -H 'Authorization: Bearer " + (token != null ? token : "<token>") + "' -H 'Content-Type: application/json' \\");
      System.out.println("       -d '{\"question\": \"How many tickets are still open for each priority?\"}' " + base + "/api/v1/questions");
      System.out.println("  stdio MCP for Claude Desktop, Cursor, VS Code: ./schemarag mcp");
      return g;
    } catch (Exception e) {
      System.out.println("\ngateway not started: " + e.getMessage());
      return null;
    }
  }

  /** Questions of the sample; without a model, the first two match documented queries and the last does not. */
  static final List<String> SAMPLE_QUESTIONS = List.of("What is our revenue per month?", "How many tickets are still open for each priority?",
      "Which employees were hired in the last two years?");

  private static void askSampleQuestions(SchemaragConfig config, LocalStack stack) throws Exception {
    boolean model = !config.get(ConfigKeys.LLM_BASE_URL).isBlank();
    System.out.println(model
        ? "\nquestions through the query service (model " + config.get(ConfigKeys.LLM_MODEL) + " at " + config.get(ConfigKeys.LLM_BASE_URL) + ")"
        : "\nquestions through the query service, no model configured (set SCHEMARAG_LLM_BASE_URL and SCHEMARAG_LLM_MODEL for one):"
            + " a question close to a documented query reuses its SQL; any other fails as generator_unavailable with its schema context");
    try (QuestionClient client = new QuestionClient(stack.catalog, ServiceSettings.kafka(config, stack.bootstrapServers))) {
      for (String question : SAMPLE_QUESTIONS) {
        System.out.println("\n? " + question);
        QuestionRequested q = QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString())
            .setDatabaseId(config.get(ConfigKeys.DATABASE_ID)).setQuestion(question).setOptions(QuestionOptions.newBuilder().setMaxRows(50).build())
            .setRequestedBy("demo").setRequestedAtMs(System.currentTimeMillis()).build();
        AnswerPrinter.print(client.ask(q, Duration.ofSeconds(180)), System.out);
      }
      if (config.get(ConfigKeys.ACCESS_PRINCIPALS).contains("sales_analyst=sales_analyst")) {
        // The sample's roles: the sales analyst's questions see sales and inventory only, so pay is not theirs to ask about.
        System.out.println("\n? " + PRINCIPAL_QUESTION + "   (./schemarag ask --as sales_analyst \"...\")");
        QuestionRequested q = QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString())
            .setDatabaseId(config.get(ConfigKeys.DATABASE_ID)).setQuestion(PRINCIPAL_QUESTION).setOptions(QuestionOptions.newBuilder().build())
            .setRequestedBy("sales_analyst").setRequestedAtMs(System.currentTimeMillis()).build();
        AnswerPrinter.print(client.ask(q, Duration.ofSeconds(180)), System.out);
      }
    }
  }

  static final String PRINCIPAL_QUESTION = "What is the average salary by department?";

  private static void step(ConnectionSource db, BlockingQueue<IndexUpdate> updates, String sql, String table)
      throws SQLException, InterruptedException {
    System.out.println("  " + sql);
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
    print(await(updates, table));
  }

  private static IndexUpdate await(BlockingQueue<IndexUpdate> updates, String table) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      IndexUpdate u = updates.poll(500, TimeUnit.MILLISECONDS);
      if (u != null && (u.getSchemaName() + "." + u.getTableName()).equals(table)) {
        return u;
      }
    }
    throw new IllegalStateException("no index update for " + table + " within 60 s");
  }

  private static void print(IndexUpdate u) {
    System.out.printf("    -> %s.%s: +%d added, ~%d updated, -%d removed, =%d unchanged; %d re-embedded; lag %s ms%n",
        u.getSchemaName(), u.getTableName(), u.getAdded(), u.getUpdated(), u.getRemoved(), u.getUnchanged(), u.getEmbedded(),
        u.getLagMs() == null ? "?" : u.getLagMs().toString());
  }

  private static void drain(BlockingQueue<IndexUpdate> updates, Duration quiet) throws InterruptedException {
    while (updates.poll(quiet.toMillis(), TimeUnit.MILLISECONDS) != null) {
      // docs and FK neighbours settling
    }
  }
}
