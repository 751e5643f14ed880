package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.index.IndexUpdate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
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
    boolean ownDatabase = base.optional(ConfigKeys.DB_URL).isPresent();
    Path docsRoot = state.dir().resolve("docs");
    SchemaragConfig config = ownDatabase && !loadSample ? base : base.with(Map.of(
        "database.id", SampleDatabase.DATABASE_ID, "catalog.schemas", SampleDatabase.schemasCsv(),
        "docs.root", docsRoot.toString(), "indexer.state.dir", state.dir().resolve("streams").toString()));
    LocalStack stack = LocalStack.start(config, state, System.out);
    CountDownLatch stopped = new CountDownLatch(1);
    LivePipeline[] pipeline = new LivePipeline[1];
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("\nschemarag demo: stopping ...");
      if (pipeline[0] != null) {
        pipeline[0].close();
      }
      stack.close();
      System.out.println("schemarag demo: stopped, nothing left running.");
      stopped.countDown();
    }, "demo-stop"));

    ConnectionSource db = ConnectionSource.of(stack.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
    if (!ownDatabase || loadSample) {
      long t0 = System.nanoTime();
      SampleDatabase.load(db, SampleDatabase.DEFAULT_DIR);
      copyDocs(SampleDatabase.DEFAULT_DIR.resolve("docs"), docsRoot.resolve(SampleDatabase.DATABASE_ID).resolve("docs"));
      System.out.printf("sample ERP database loaded in %.1f s (schemas %s)%n", (System.nanoTime() - t0) / 1e9, SampleDatabase.schemasCsv());
    }
    String databaseId = config.get(ConfigKeys.DATABASE_ID);
    int tables = new PgCatalogReader(db).read(databaseId, dev.schemarag.service.ServiceSettings.schemas(config)).size();

    BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
    long t0 = System.nanoTime();
    pipeline[0] = LivePipeline.start(config, stack.dbUrl, stack.bootstrapServers, updates::add);
    Set<String> indexed = new HashSet<>();
    long chunks = 0;
    long embedded = 0;
    try (ProgressBar bar = new ProgressBarBuilder().setTaskName("initial index").setInitialMax(tables).setUnit(" tables", 1).build()) {
      while (indexed.size() < tables) {
        IndexUpdate u = updates.poll(120, TimeUnit.SECONDS);
        if (u == null) {
          throw new IllegalStateException("no index update for 120 s; indexed " + indexed.size() + " of " + tables + " tables");
        }
        indexed.add(u.getSchemaName() + "." + u.getTableName());
        chunks += u.getAdded() + u.getUpdated();
        embedded += u.getEmbedded();
        bar.stepTo(indexed.size());
      }
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    System.out.printf("initial index: %d tables, %d chunks written (%d embedded, the rest from the embedding cache) in %.1f s: %.0f chunks/s%n",
        tables, chunks, embedded, secs, chunks / secs);
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

    System.out.println("\nReady. Ctrl-C (or ./schemarag demo --stop in another terminal) stops everything.");
    stopped.await();
    return 0;
  }

  private static void copyDocs(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".md")).toList()) {
        Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

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
