package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgDenseSearch;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.ingest.AuditInstaller;
import dev.schemarag.service.ServiceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
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
  private static final String[] WORDS = {"amber", "harbor", "ledger", "violet", "turbine", "quarry", "meadow", "cipher", "lantern",
      "glacier", "saffron", "orchid", "falcon", "granite", "tundra", "velvet", "walnut", "zephyr", "copper", "delta"};

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
    sql(db, "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "CREATE SCHEMA " + SCHEMA,
        "CREATE TABLE " + SCHEMA + ".probe (id int PRIMARY KEY, name text)");
    AtomicLong embedded = new AtomicLong();
    AtomicLong updates = new AtomicLong();
    List<Long> latencies = new ArrayList<>();
    Map<String, List<Long>> byKind = new LinkedHashMap<>();
    try (LivePipeline pipeline = LivePipeline.start(config, dbUrl, bootstrap, u -> count(u, embedded, updates));
         PgDenseSearch dense = new PgDenseSearch(db, SCHEMA)) {
      Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config.get(ConfigKeys.EMBEDDING_MODEL),
          config.get(ConfigKeys.EMBEDDING_BASE_URL), config.get(ConfigKeys.EMBEDDING_API_KEY), 8);
      awaitText(db, dense, embedder, "probe", ChunkKind.COLUMN, "name", "probe name", Duration.ofSeconds(120));
      long embeddedBefore = embedded.get();
      Random random = new Random(42);
      String run = Long.toString(System.currentTimeMillis() % 100000, 36);
      List<String[]> renamable = new ArrayList<>();
      for (int i = 0; i < changes; i++) {
        String marker = marker(random, run, i);
        Change c = change(i, marker, renamable);
        long committed = sql(db, c.statements());
        long searchable = awaitText(db, dense, embedder, c.table(), c.kind(), c.subject(), c.expected(), Duration.ofSeconds(60));
        long ms = Math.max(0, searchable - committed);
        latencies.add(ms);
        byKind.computeIfAbsent(c.label(), k -> new ArrayList<>()).add(ms);
        System.out.printf("  %3d  %-22s %5d ms%n", i + 1, c.label(), ms);
      }
      // Late updates of the last change (none expected) would still count.
      Thread.sleep(500);
      double perChange = (embedded.get() - embeddedBefore) / (double) changes;
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("changes", changes);
      figures.put("p50_ms", percentile(latencies, 50));
      figures.put("p95_ms", percentile(latencies, 95));
      figures.put("max_ms", Collections.max(latencies));
      figures.put("embeddings_per_change", perChange);
      Map<String, Object> kinds = new LinkedHashMap<>();
      byKind.forEach((k, v) -> kinds.put(k, Map.of("changes", v.size(), "p50_ms", percentile(v, 50), "max_ms", Collections.max(v))));
      figures.put("by_kind", kinds);
      System.out.printf("%nchange→searchable over %d changes: p50 %d ms, p95 %d ms, max %d ms; embeddings per change %.2f%n",
          changes, percentile(latencies, 50), percentile(latencies, 95), Collections.max(latencies), perChange);
      if (json != null) {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), figures);
        System.out.println("figures written to " + json);
      }
    } finally {
      new AuditInstaller(db, config.get(ConfigKeys.INGEST_PUBLICATION)).dropSlot(config.get(ConfigKeys.INGEST_SLOT));
      sql(db, "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "DROP PUBLICATION IF EXISTS schemarag_freshness");
      if (own != null) {
        own.close();
      }
    }
    return 0;
  }

  private static void count(IndexUpdate u, AtomicLong embedded, AtomicLong updates) {
    if (SCHEMA.equals(u.getDatabaseId())) {
      embedded.addAndGet(u.getEmbedded());
      updates.incrementAndGet();
    }
  }

  /** One change: its statements (one transaction) and the chunk whose text must become searchable. */
  record Change(String label, List<String> statements, String table, ChunkKind kind, String subject, String expected) {}

  private static Change change(int i, String marker, List<String[]> renamable) {
    String t = SCHEMA + ".probe";
    switch (i % 5) {
      case 0:
        return new Change("CREATE TABLE + comment", List.of("CREATE TABLE " + SCHEMA + ".t" + i + " (id int PRIMARY KEY, note text)",
            "COMMENT ON TABLE " + SCHEMA + ".t" + i + " IS '" + marker + "'"), "t" + i, ChunkKind.OVERVIEW, "", marker);
      case 1:
        renamable.add(new String[] {"c" + i, marker});
        return new Change("ADD COLUMN + comment", List.of("ALTER TABLE " + t + " ADD COLUMN c" + i + " text",
            "COMMENT ON COLUMN " + t + ".c" + i + " IS '" + marker + "'"), "probe", ChunkKind.COLUMN, "c" + i, marker);
      case 2:
        return new Change("COMMENT ON COLUMN", List.of("COMMENT ON COLUMN " + t + ".name IS '" + marker + "'"), "probe",
            ChunkKind.COLUMN, "name", marker);
      case 3:
        return new Change("COMMENT ON TABLE", List.of("COMMENT ON TABLE " + t + " IS '" + marker + "'"), "probe",
            ChunkKind.OVERVIEW, "", marker);
      default:
        // The renamed column keeps its comment: its chunk moves to the new name with that text.
        String[] old = renamable.remove(renamable.size() - 1);
        return new Change("RENAME COLUMN", List.of("ALTER TABLE " + t + " RENAME COLUMN " + old[0] + " TO r" + i), "probe",
            ChunkKind.COLUMN, "r" + i, old[1]);
    }
  }

  private static String marker(Random r, String run, int i) {
    StringBuilder sb = new StringBuilder("probe ").append(run).append(' ').append(i);
    for (int w = 0; w < 4; w++) {
      sb.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }

  /**
   * Polls until a dense search for {@code query} returns the chunk (table, kind, subject) and that
   * chunk's stored text contains {@code query}; returns the wall-clock time it first did.
   */
  private static long awaitText(ConnectionSource db, DenseSearch dense, Langchain4jEmbedder embedder, String table, ChunkKind kind,
                                String subject, String query, Duration timeout) throws SQLException, InterruptedException {
    String fullTable = SCHEMA + "." + table;
    float[] vector = embedder.embedAll(List.of(query)).get(0);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      boolean hit = dense.nearest(kind, vector, 5).stream()
          .anyMatch(h -> h.table().equals(fullTable) && h.subject().orElse("").equals(subject));
      if (hit && storedText(db, fullTable, kind, subject).map(s -> s.contains(query)).orElse(false)) {
        return System.currentTimeMillis();
      }
      Thread.sleep(5);
    }
    throw new IllegalStateException("the new text of " + fullTable + " " + kind.label() + " " + subject + " was not searchable within "
        + timeout.toSeconds() + " s");
  }

  private static Optional<String> storedText(ConnectionSource db, String table, ChunkKind kind, String subject) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("SELECT embed_text FROM " + PgChunkStore.SCHEMA
        + ".chunks WHERE database_id = ? AND table_name = ? AND kind = ? AND coalesce(subject, '') = ?")) {
      ps.setString(1, SCHEMA);
      ps.setString(2, table);
      ps.setString(3, kind.label());
      ps.setString(4, subject);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** Runs the statements in one transaction; returns the wall-clock time the commit returned. */
  private static long sql(ConnectionSource db, List<String> statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (String st : statements) {
        s.execute(st);
      }
      c.commit();
      return System.currentTimeMillis();
    }
  }

  private static void sql(ConnectionSource db, String... statements) throws SQLException {
    sql(db, List.of(statements));
  }

  static long percentile(List<Long> values, int p) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, idx)));
  }
}
