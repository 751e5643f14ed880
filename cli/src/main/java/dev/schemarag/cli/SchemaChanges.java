package dev.schemarag.cli;

import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
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
import java.util.Random;

/**
 * Schema changes of five kinds (CREATE TABLE + comment, ADD COLUMN + comment, COMMENT ON COLUMN,
 * COMMENT ON TABLE, RENAME COLUMN) applied to a probe table of one schema, each timed from the
 * DDL's commit until retrieval returns the new text: a dense search for it whose hits include the
 * changed chunk, with that chunk's stored text carrying it. {@code bench freshness} runs them on a
 * schema of its own, {@code bench scale} beside thousands of tables.
 */
final class SchemaChanges {

  private static final String[] WORDS = {"amber", "harbor", "ledger", "violet", "turbine", "quarry", "meadow", "cipher", "lantern",
      "glacier", "saffron", "orchid", "falcon", "granite", "tundra", "velvet", "walnut", "zephyr", "copper", "delta"};

  private final ConnectionSource db;
  private final String databaseId;
  private final String schema;

  /** @param schema the schema the probe table lives in; it must be one the pipeline monitors */
  SchemaChanges(ConnectionSource db, String databaseId, String schema) {
    this.db = db;
    this.databaseId = databaseId;
    this.schema = schema;
  }

  /** The schema, empty but for the probe table. */
  void createProbe() throws SQLException {
    sql(List.of("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema,
        "CREATE TABLE " + schema + ".probe (id int PRIMARY KEY, name text)"));
  }

  /** Waits until the probe table's name column is searchable. */
  void awaitProbe(DenseSearch dense, Langchain4jEmbedder embedder, Duration timeout) throws SQLException, InterruptedException {
    awaitText(dense, new Made(schema + ".probe", ChunkKind.COLUMN, "name", embedder.embedAll(List.of("probe name")).get(0)), "probe name",
        timeout);
  }

  /** One measured change. */
  record Measured(String label, long ms) {}

  /** Called after each change is searchable, with its index (from 0) and the chunk it made. */
  interface AfterChange {
    void accept(int change, Made made) throws Exception;
  }

  /** The chunk a change made (table, kind, subject) and the vector of its text, to find it by. */
  record Made(String table, ChunkKind kind, String subject, float[] vector) {
    /** Whether a dense search (pgvector's, or a loaded index's) finds the chunk among the 20 nearest to its text. */
    boolean foundIn(DenseSearch dense) throws SQLException {
      // Top 20, not 5: the probes' texts share their words, and at 10,000 tables HNSW once kept a new
      // probe out of its own top 5 for a minute while earlier probes filled it.
      return dense.nearest(kind, vector, 20).stream().anyMatch(h -> h.table().equals(table) && h.subject().orElse("").equals(subject));
    }
  }

  /** Applies {@code n} changes one after another, printing each one's latency. */
  List<Measured> apply(int n, DenseSearch dense, Langchain4jEmbedder embedder, AfterChange after) throws Exception {
    Random random = new Random(42);
    String run = Long.toString(System.currentTimeMillis() % 100000, 36);
    List<String[]> renamable = new ArrayList<>();
    List<Measured> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Change c = change(i, marker(random, run, i), renamable);
      Made made = new Made(schema + "." + c.table(), c.kind(), c.subject(), embedder.embedAll(List.of(c.expected())).get(0));
      long committed = sql(c.statements());
      long searchable = awaitText(dense, made, c.expected(), Duration.ofSeconds(60));
      long ms = Math.max(0, searchable - committed);
      out.add(new Measured(c.label(), ms));
      System.out.printf("  %3d  %-22s %5d ms%n", i + 1, c.label(), ms);
      after.accept(i, made);
    }
    return out;
  }

  /** p50, p95 and max over all changes, and p50 and max per kind. */
  static Map<String, Object> figures(List<Measured> measured) {
    List<Long> all = measured.stream().map(Measured::ms).toList();
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("changes", measured.size());
    figures.put("p50_ms", FreshnessBench.percentile(all, 50));
    figures.put("p95_ms", FreshnessBench.percentile(all, 95));
    figures.put("max_ms", Collections.max(all));
    Map<String, List<Long>> byKind = new LinkedHashMap<>();
    measured.forEach(m -> byKind.computeIfAbsent(m.label(), k -> new ArrayList<>()).add(m.ms()));
    Map<String, Object> kinds = new LinkedHashMap<>();
    byKind.forEach((k, v) -> kinds.put(k, Map.of("changes", v.size(), "p50_ms", FreshnessBench.percentile(v, 50), "max_ms", Collections.max(v))));
    figures.put("by_kind", kinds);
    return figures;
  }

  /** One change: its statements (one transaction) and the chunk whose text must become searchable. */
  private record Change(String label, List<String> statements, String table, ChunkKind kind, String subject, String expected) {}

  private Change change(int i, String marker, List<String[]> renamable) {
    String t = schema + ".probe";
    switch (i % 5) {
      case 0:
        return new Change("CREATE TABLE + comment", List.of("CREATE TABLE " + schema + ".t" + i + " (id int PRIMARY KEY, note text)",
            "COMMENT ON TABLE " + schema + ".t" + i + " IS '" + marker + "'"), "t" + i, ChunkKind.OVERVIEW, "", marker);
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
   * Polls until a dense search finds the chunk {@code made} names and that chunk's stored text
   * contains {@code query}; returns the wall-clock time it first did. The text is embedded before the
   * change is committed, so its embedding does not count in the change's latency.
   */
  private long awaitText(DenseSearch dense, Made made, String query, Duration timeout) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (made.foundIn(dense) && storedText(made.table(), made.kind(), made.subject()).map(s -> s.contains(query)).orElse(false)) {
        return System.currentTimeMillis();
      }
      Thread.sleep(5);
    }
    throw new IllegalStateException("the new text of " + made.table() + " " + made.kind().label() + " " + made.subject()
        + " was not searchable within " + timeout.toSeconds() + " s: " + whyNotFound(made, query));
  }

  /**
   * Which step the change did not reach: the chunk's stored text, its vector among the searched
   * texts, or the approximate search (then with the rank an exact search gives it).
   */
  private String whyNotFound(Made made, String query) throws SQLException {
    Optional<String> text = storedText(made.table(), made.kind(), made.subject());
    if (text.isEmpty()) {
      return "the store holds no such chunk";
    }
    if (!text.get().contains(query)) {
      return "the stored chunk's text does not hold it yet (" + abbreviated(text.get()) + ")";
    }
    String texts = PgChunkStore.SCHEMA + "." + PgChunkStore.TEXTS;
    // No ORDER BY and no LIMIT: the planner scans every text, so the rank is exact.
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("WITH mine AS (SELECT t.embedding <=> ?::vector AS d FROM "
        + texts + " t JOIN " + PgChunkStore.SCHEMA + ".chunks c ON c.database_id = t.database_id AND c.kind = t.kind"
        + " AND c.embed_hash = t.embed_hash WHERE c.database_id = ? AND c.table_name = ? AND c.kind = ? AND coalesce(c.subject, '') = ?)"
        + " SELECT (SELECT d FROM mine), (SELECT count(*) FROM " + texts + " WHERE database_id = ? AND kind = ?"
        + " AND embedding <=> ?::vector < (SELECT d FROM mine))")) {
      String v = java.util.Arrays.toString(made.vector());
      ps.setString(1, v);
      ps.setString(2, databaseId);
      ps.setString(3, made.table());
      ps.setString(4, made.kind().label());
      ps.setString(5, made.subject());
      ps.setString(6, databaseId);
      ps.setString(7, made.kind().label());
      ps.setString(8, v);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getObject(1) == null) {
          return "the stored text holds it, but the searched texts hold no vector of it";
        }
        return String.format("the stored text holds it and its vector is searched (cosine %.3f), %d texts are nearer by an exact"
            + " search, and the approximate search did not return it among its 20 nearest", 1 - rs.getDouble(1), rs.getLong(2));
      }
    }
  }

  private static String abbreviated(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120) + "...";
  }

  private Optional<String> storedText(String table, ChunkKind kind, String subject) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("SELECT embed_text FROM " + PgChunkStore.SCHEMA
        + ".chunks WHERE database_id = ? AND table_name = ? AND kind = ? AND coalesce(subject, '') = ?")) {
      ps.setString(1, databaseId);
      ps.setString(2, table);
      ps.setString(3, kind.label());
      ps.setString(4, subject);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** Runs the statements in one transaction; returns the wall-clock time the commit returned. */
  long sql(List<String> statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (String st : statements) {
        s.execute(st);
      }
      c.commit();
      return System.currentTimeMillis();
    }
  }
}
