package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgDenseSearch;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.ingest.AuditInstaller;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag bench freshness}: applies N schema changes of mixed kinds to a schema of its
 * own and measures, per change, the time from the DDL's commit until retrieval returns the new
 * text: a dense search for the change's new text whose hits include the changed chunk, with that
 * chunk's stored text carrying it. Uses a running demo's PostgreSQL and broker, or starts its own.
 */
@Command(name = "freshness", description = "Change→searchable latency of the live index, and embeddings computed per change.")
final class FreshnessBench implements Callable<Integer> {

  private static final String SCHEMA = "freshness";

  @ParentCommand BenchCommand bench;
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--changes", defaultValue = "50", description = "schema changes to apply (default ${DEFAULT-VALUE})")
  int changes;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  @Override
  public Integer call() throws Exception {
    if (changes < 1) {
      throw new IllegalArgumentException("--changes must be at least 1, not " + changes);
    }
    Main main = (Main) spec.parent().parent().userObject();
    SchemaragConfig base = main.config();
    LocalStackState demo = LocalStackState.at(base);
    Optional<Properties> running = demo.running().filter(p -> p.getProperty("db.url") != null);
    Path work = Files.createTempDirectory("schemarag-freshness");
    SchemaragConfig config = base.with(Map.of("database.id", SCHEMA, "catalog.schemas", SCHEMA,
        "ingest.slot.name", "schemarag_freshness", "ingest.publication", "schemarag_freshness",
        "indexer.application.id", "schemarag-freshness-" + System.currentTimeMillis(), "indexer.state.dir", work.resolve("streams").toString(),
        "docs.root", work.resolve("docs").toString()));
    LocalStack own = null;
    String dbUrl;
    String bootstrap;
    if (running.isPresent()) {
      dbUrl = running.get().getProperty("db.url");
      bootstrap = running.get().getProperty("bootstrap.servers");
      System.out.println("using the running demo's PostgreSQL and broker");
      TopicAdmin.createMissing(bootstrap, ServiceSettings.topics(config).all());
    } else {
      SchemaragConfig local = config.with(Map.of("local.dir", work.resolve("stack").toString(), "local.pg.name", "freshness"));
      own = LocalStack.start(local, LocalStackState.at(local), System.out);
      dbUrl = own.dbUrl;
      bootstrap = own.bootstrapServers;
    }
    ConnectionSource db = ConnectionSource.of(dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
    SchemaChanges probe = new SchemaChanges(db, SCHEMA, SCHEMA);
    probe.createProbe();
    AtomicLong embedded = new AtomicLong();
    AtomicLong updates = new AtomicLong();
    try (LivePipeline pipeline = LivePipeline.start(config, dbUrl, bootstrap, u -> count(u, embedded, updates));
         PgDenseSearch dense = new PgDenseSearch(db, SCHEMA)) {
      Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config, 8);
      probe.awaitProbe(dense, embedder, Duration.ofSeconds(120));
      long embeddedBefore = embedded.get();
      List<SchemaChanges.Measured> measured = probe.apply(changes, dense, embedder, (i, made) -> { });
      // Late updates of the last change (none expected) would still count.
      Thread.sleep(500);
      double perChange = (embedded.get() - embeddedBefore) / (double) changes;
      Map<String, Object> figures = SchemaChanges.figures(measured);
      figures.put("embeddings_per_change", perChange);
      System.out.printf("%nchange→searchable over %d changes: p50 %d ms, p95 %d ms, max %d ms; embeddings per change %.2f%n",
          changes, figures.get("p50_ms"), figures.get("p95_ms"), figures.get("max_ms"), perChange);
      if (json != null) {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), figures);
        System.out.println("figures written to " + json);
      }
    } finally {
      new AuditInstaller(db, config.get(ConfigKeys.INGEST_PUBLICATION)).dropSlot(config.get(ConfigKeys.INGEST_SLOT));
      probe.sql(List.of("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "DROP PUBLICATION IF EXISTS schemarag_freshness"));
      if (own != null) {
        own.close();
      }
      // The stopped cluster, the streams state and the docs are this run's only: nothing to keep.
      dev.schemarag.infra.Files2.deleteTree(work);
    }
    return 0;
  }

  private static void count(IndexUpdate u, AtomicLong embedded, AtomicLong updates) {
    if (SCHEMA.equals(u.getDatabaseId())) {
      embedded.addAndGet(u.getEmbedded());
      updates.incrementAndGet();
    }
  }

  static long percentile(List<Long> values, int p) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, idx)));
  }
}
