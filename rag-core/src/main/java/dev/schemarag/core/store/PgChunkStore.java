package dev.schemarag.core.store;

import com.pgvector.PGvector;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Hashing;
import dev.schemarag.core.index.ChunkDiff;
import dev.schemarag.core.index.ChunkStore;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chunks and their vectors in pgvector: one row per chunk id, and each searched text once (in
 * {@value #TEXTS}, kept by triggers) with an HNSW (cosine) index per database and searched kind, built
 * once rows are stored ({@link #buildVectorIndexes}). Writes are
 * idempotent upserts guarded by version, so replaying an older step never regresses the index.
 * Vectors are always bound as parameters.
 */
public final class PgChunkStore implements ChunkStore {

  private static final Logger LOG = LoggerFactory.getLogger(PgChunkStore.class);
  public static final String SCHEMA = "schemarag_index";

  /** Kinds that dense search queries, each with its own HNSW index per database. */
  public static final java.util.List<ChunkKind> SEARCHED_KINDS = ChunkKind.EMBEDDED;

  /**
   * A database's chunks of one kind get their own HNSW graph from this many rows. Measured on a
   * store beside a 10,000-table database: 4,503 column chunks took 1.6 ms in their own graph,
   * 12.9 ms scanned exactly; 798 took 2.8 ms scanned exactly.
   */
  public static final int VECTOR_INDEX_MIN_ROWS = 500;

  private final ConnectionSource db;
  private final int vectorIndexMinRows;

  public PgChunkStore(ConnectionSource db) {
    this(db, VECTOR_INDEX_MIN_ROWS);
  }

  /** @param vectorIndexMinRows rows of one database and kind from which they get their own HNSW graph */
  public PgChunkStore(ConnectionSource db, int vectorIndexMinRows) {
    this.db = db;
    this.vectorIndexMinRows = vectorIndexMinRows;
  }

  /** What is stored of a chunk: enough to diff against new chunks. */
  public record Stored(String id, String table, ChunkKind kind, String contentHash, String embedHash, String modelId, long version) {}

  /**
   * Creates the schema when missing. A stored vector dimension that differs from {@code dimension}
   * means another model: the chunk table is recreated, so everything is re-embedded. In one
   * transaction under an advisory lock: services starting together on a new database would
   * otherwise race ({@code CREATE EXTENSION IF NOT EXISTS} is not safe against a concurrent one:
   * "duplicate key ... extname").
   */
  public void ensureSchema(int dimension) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      try {
        ensureSchema(c, s, dimension);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  private static void ensureSchema(Connection c, Statement s, int dimension) throws SQLException {
    s.execute("SELECT pg_advisory_xact_lock(hashtext('" + SCHEMA + ".ensureSchema'))");
    s.execute("CREATE EXTENSION IF NOT EXISTS vector");
    s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    EmbeddingColumn column = embeddingColumn(c);
    int stored = column.dimension();
    if (stored > 0 && stored != dimension) {
      LOG.warn("stored vectors have {} dimensions, the model has {}: dropping the chunk table to re-embed", stored, dimension);
      s.execute("DROP TABLE " + SCHEMA + ".chunks");
      s.execute("DROP TABLE IF EXISTS " + SCHEMA + "." + TEXTS);
    }
    s.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".chunks ("
        + "id text PRIMARY KEY, database_id text NOT NULL, table_name text NOT NULL, kind text NOT NULL, subject text,"
        + " related_tables text[] NOT NULL, keywords text[] NOT NULL, token_estimate int NOT NULL,"
        + " embed_text text NOT NULL, prompt_text text NOT NULL, embed_hash text NOT NULL, content_hash text NOT NULL,"
        + " model_id text NOT NULL, embedding vector(" + dimension + "), version bigint NOT NULL,"
        + " updated_at timestamptz NOT NULL DEFAULT now())");
    // A chunk of a kind that is not embedded (ChunkKind.embedded) has no vector; tables made before that kept one for every
    // chunk. A table made just now (none, or of another dimension) has no such constraint.
    if (stored == dimension && column.required()) {
      s.execute("ALTER TABLE " + SCHEMA + ".chunks ALTER COLUMN embedding DROP NOT NULL");
    }
    s.execute("DROP INDEX IF EXISTS " + SCHEMA + ".chunks_embedding_hnsw");
    // The HNSW indexes are not made here: see buildVectorIndexes.
    createIndexUnlessPresent(c, s, "chunks_table", "(database_id, table_name)");
    s.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".embedding_cache ("
        + "model_id text NOT NULL, text_hash text NOT NULL, embedding vector NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),"
        + " PRIMARY KEY (model_id, text_hash))");
    ensureTexts(c, s, dimension);
  }

  /**
   * The searched chunks' distinct texts, one row per database, kind and embed text, with how many chunks
   * say it: what dense search walks. Copies of one table in several schemas (a region's, a tenant's)
   * say the same texts, and a search over chunks gave their copies of one text the places of other
   * tables' columns (at 10,000 tables, 87,514 chunks held 31,554 texts). Kept in step with the chunk
   * table by triggers in the writing transaction itself, so no writer can forget it and no reader
   * sees the two apart; filled from the chunks on the first start of a version that has it.
   */
  public static final String TEXTS = "chunk_texts";
  /** The triggers on the chunk table that keep {@link #TEXTS}. */
  static final String TRIGGER_INSERT_DELETE = "chunk_texts_insert_delete";
  static final String TRIGGER_UPDATE = "chunk_texts_update";

  private static void ensureTexts(Connection c, Statement s, int dimension) throws SQLException {
    if (!exists(c, TEXTS)) {
      s.execute("CREATE TABLE " + SCHEMA + "." + TEXTS + " (database_id text NOT NULL, kind text NOT NULL, embed_hash text NOT NULL,"
          + " embedding vector(" + dimension + ") NOT NULL, refs int NOT NULL, PRIMARY KEY (database_id, kind, embed_hash))");
      s.execute("INSERT INTO " + SCHEMA + "." + TEXTS + " SELECT database_id, kind, embed_hash, (array_agg(embedding))[1], count(*) FROM "
          + SCHEMA + ".chunks WHERE kind IN (" + searchedKindsSql() + ") GROUP BY database_id, kind, embed_hash");
    }
    // A text's chunks, found from a text hit. It replaces the (database, kind) index of earlier versions, which
    // the planner would otherwise take for this lookup while the text table has no statistics yet (measured on
    // the sample database: 27 ms for 200 column texts by EXPLAIN ANALYZE; the eval's pgvector stage 31.4 ms mean, 5.3 without it).
    createIndexUnlessPresent(c, s, "chunks_text", "(database_id, kind, embed_hash)");
    dropIndexIfPresent(c, s, "chunks_database_kind");
    String texts = SCHEMA + "." + TEXTS;
    String key = "database_id = %1$s.database_id AND kind = %1$s.kind AND embed_hash = %1$s.embed_hash";
    // Decrement before increment, and a text no chunk says any more goes: its vector must not take a place in a search.
    String function = "CREATE OR REPLACE FUNCTION " + SCHEMA + ".chunk_texts_sync() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        + " IF TG_OP <> 'INSERT' AND OLD.kind IN (" + searchedKindsSql() + ") THEN"
        + " UPDATE " + texts + " SET refs = refs - 1 WHERE " + String.format(key, "OLD") + ";"
        + " DELETE FROM " + texts + " WHERE " + String.format(key, "OLD") + " AND refs <= 0;"
        + " END IF;"
        + " IF TG_OP <> 'DELETE' AND NEW.kind IN (" + searchedKindsSql() + ") THEN"
        + " INSERT INTO " + texts + " AS t VALUES (NEW.database_id, NEW.kind, NEW.embed_hash, NEW.embedding, 1)"
        + " ON CONFLICT (database_id, kind, embed_hash) DO UPDATE SET refs = t.refs + 1, embedding = EXCLUDED.embedding;"
        + " END IF;"
        + " RETURN NULL; END $$";
    String insertDelete = "CREATE OR REPLACE TRIGGER " + TRIGGER_INSERT_DELETE + " AFTER INSERT OR DELETE ON " + SCHEMA + ".chunks"
        + " FOR EACH ROW EXECUTE FUNCTION " + SCHEMA + ".chunk_texts_sync()";
    // An update that keeps the text, its vector, kind and database (a new prompt text, a version) leaves the count alone.
    String update = "CREATE OR REPLACE TRIGGER " + TRIGGER_UPDATE + " AFTER UPDATE ON " + SCHEMA + ".chunks FOR EACH ROW"
        + " WHEN ((OLD.database_id, OLD.kind, OLD.embed_hash) IS DISTINCT FROM (NEW.database_id, NEW.kind, NEW.embed_hash)"
        + " OR OLD.embedding IS DISTINCT FROM NEW.embedding) EXECUTE FUNCTION " + SCHEMA + ".chunk_texts_sync()";
    // Replacing a trigger locks the chunk table against writes until this start commits, and every service
    // start comes here: triggers this version wrote (their statements' hash in a comment) are left alone.
    String version = Hashing.sha256(function, insertDelete, update);
    if (!version.equals(triggersVersion(c))) {
      s.execute(function);
      s.execute(insertDelete);
      s.execute(update);
      s.execute("COMMENT ON TRIGGER " + TRIGGER_UPDATE + " ON " + SCHEMA + ".chunks IS " + literal(version));
    }
  }

  /** The statements' hash the text triggers were written with, or null when either trigger is missing. */
  private static String triggersVersion(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT count(*), max(obj_description(oid, 'pg_trigger')) FILTER (WHERE tgname = ?)"
        + " FROM pg_trigger WHERE tgrelid = to_regclass(?) AND tgname IN (?, ?)")) {
      ps.setString(1, TRIGGER_UPDATE);
      ps.setString(2, SCHEMA + ".chunks");
      ps.setString(3, TRIGGER_INSERT_DELETE);
      ps.setString(4, TRIGGER_UPDATE);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 2 ? rs.getString(2) : null;
      }
    }
  }

  /** The searched kinds as a list of SQL literals. */
  private static String searchedKindsSql() {
    return String.join(", ", SEARCHED_KINDS.stream().map(k -> literal(k.label())).toList());
  }

  /**
   * CREATE INDEX IF NOT EXISTS takes its share lock on the table before it finds the index there; a
   * service starting while an HNSW graph builds concurrently would deadlock with the build, which
   * waits for this transaction. So the name is looked up first.
   */
  private static void createIndexUnlessPresent(Connection c, Statement s, String name, String columns) throws SQLException {
    if (exists(c, name)) {
      return;
    }
    s.execute("CREATE INDEX IF NOT EXISTS " + name + " ON " + SCHEMA + ".chunks " + columns);
  }

  /** Drops an index when it is there; looked up first, for the reason {@link #createIndexUnlessPresent} gives. */
  private static void dropIndexIfPresent(Connection c, Statement s, String name) throws SQLException {
    if (exists(c, name)) {
      s.execute("DROP INDEX IF EXISTS " + SCHEMA + "." + name);
    }
  }

  /** Whether a relation (table or index) of this name is in the store's schema. */
  private static boolean exists(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      ps.setString(1, SCHEMA + "." + name);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  /**
   * The HNSW index of one database's chunks of one searched kind. One graph per database, not one
   * for all: a small database's search beside a large one would walk the large one's vectors and
   * filter them out (measured: spider-union's pgvector stage 12.9 ms mean beside a 10,000-table
   * database's 87,592 chunks, 5.7 ms alone).
   */
  public record VectorIndex(String databaseId, ChunkKind kind) {

    /** A name PostgreSQL takes (at most 63 bytes), unique per database id and kind: readable id, then its hash. */
    public String name() {
      String readable = databaseId.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
      if (readable.length() > 30) {
        readable = readable.substring(0, 30);
      }
      java.util.zip.CRC32 crc = new java.util.zip.CRC32();
      crc.update(databaseId.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return String.format(java.util.Locale.ROOT, "%s%s_%s_%08x", VECTOR_INDEX_PREFIX, kind.label(), readable, crc.getValue());
    }

    /** The rows the graph holds, as the partial index's predicate and as the search's filter: the same text, so the planner matches them. */
    public String predicate() {
      return predicate("");
    }

    /** The same predicate over the rows of a table named {@code alias} in a query. */
    public String predicate(String alias) {
      String a = alias.isEmpty() ? "" : alias + ".";
      return a + "kind = '" + kind.label() + "' AND " + a + "database_id = " + literal(databaseId);
    }
  }

  /** Every HNSW index of the text table starts so; one that no stored database and kind needs is dropped. */
  static final String VECTOR_INDEX_PREFIX = "texts_hnsw_";
  /** The HNSW indexes of earlier versions, on the chunk table itself: dropped once their replacements exist. */
  static final String CHUNK_VECTOR_INDEX_PREFIX = "chunks_hnsw_";

  /** A string as an SQL literal (standard_conforming_strings, PostgreSQL's default since 9.1: only quotes double). */
  static String literal(String value) {
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a database id cannot hold a NUL character");
    }
    return "'" + value.replace("'", "''") + "'";
  }

  /**
   * One HNSW index per database and searched kind with at least {@link #vectorIndexMinRows} distinct
   * stored texts. Fewer are searched exactly, through the text table's key: cheap at that size, and
   * tests and evals that make many small databases build no graph for each.
   */
  public List<VectorIndex> neededVectorIndexes() throws SQLException {
    List<VectorIndex> out = new ArrayList<>();
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT database_id, kind FROM " + SCHEMA + "." + TEXTS + " WHERE kind = ANY (?) GROUP BY database_id, kind HAVING count(*) >= ?"
            + " ORDER BY database_id, kind")) {
      ps.setArray(1, c.createArrayOf("text", SEARCHED_KINDS.stream().map(ChunkKind::label).toArray()));
      ps.setInt(2, vectorIndexMinRows);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new VectorIndex(rs.getString(1), ChunkKind.valueOf(rs.getString(2).toUpperCase(java.util.Locale.ROOT))));
        }
      }
    }
    return out;
  }

  /** Whether any chunk of a searched kind is stored, in any database. */
  public boolean holdsSearchedChunks() throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT EXISTS (SELECT 1 FROM " + SCHEMA + ".chunks WHERE kind = ANY (?))")) {
      ps.setArray(1, c.createArrayOf("text", SEARCHED_KINDS.stream().map(ChunkKind::label).toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  /**
   * Needed HNSW indexes that are missing, or invalid (a concurrent build that failed leaves one
   * behind: it is neither used nor kept up to date).
   */
  public List<VectorIndex> missingVectorIndexes() throws SQLException {
    return missing(neededVectorIndexes());
  }

  private List<VectorIndex> missing(List<VectorIndex> needed) throws SQLException {
    java.util.Set<String> valid = vectorIndexNames(true);
    return needed.stream().filter(i -> !valid.contains(i.name())).toList();
  }

  /** Names of the chunk table's HNSW indexes, only the valid ones or all. */
  private java.util.Set<String> vectorIndexNames(boolean validOnly) throws SQLException {
    java.util.Set<String> names = new java.util.HashSet<>();
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace"
            + " JOIN pg_am a ON a.oid = i.relam WHERE n.nspname = ? AND a.amname = 'hnsw' AND (x.indisvalid OR NOT ?)")) {
      ps.setString(1, SCHEMA);
      ps.setBoolean(2, validOnly);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    return names;
  }

  /**
   * Builds the missing HNSW indexes, one partial index per database and searched kind, then drops
   * those no stored database needs any more (a removed source's, or the one-per-kind graphs of
   * earlier versions, once their replacements exist). Meant for after a bulk load: PostgreSQL builds
   * a graph over the stored rows several times cheaper than it inserts the same rows one by one
   * into an existing one, and until then dense search scans the rows exactly. Built concurrently,
   * so writes go on meanwhile; an invalid index a failed build left is dropped first. Under a
   * session advisory lock, as several indexers may try at once: one that finds it taken builds
   * nothing and returns.
   *
   * @param maintenanceMemory PostgreSQL's {@code maintenance_work_mem} for the build (the graph
   *     should fit in it, or the build slows down), e.g. {@code 512MB}
   * @return the indexes this call built (none when another session is building)
   */
  public List<VectorIndex> buildVectorIndexes(String maintenanceMemory) throws SQLException {
    List<VectorIndex> built = new ArrayList<>();
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      try (PreparedStatement ps = c.prepareStatement("SELECT set_config('maintenance_work_mem', ?, false)")) {
        ps.setString(1, maintenanceMemory);
        ps.execute();
      }
      // Try, not wait: a session blocked on the lock holds a snapshot the other's concurrent build would wait for.
      try (ResultSet rs = s.executeQuery("SELECT pg_try_advisory_lock(hashtext('" + SCHEMA + ".buildVectorIndexes'))")) {
        rs.next();
        if (!rs.getBoolean(1)) {
          return built;
        }
      }
      try {
        // Read once: the text table's grouping by database and kind is the costly query here.
        List<VectorIndex> needed = neededVectorIndexes();
        for (VectorIndex index : missing(needed)) {
          s.execute("DROP INDEX CONCURRENTLY IF EXISTS " + SCHEMA + "." + index.name());
          s.execute("CREATE INDEX CONCURRENTLY " + index.name() + " ON " + SCHEMA + "." + TEXTS
              + " USING hnsw (embedding vector_cosine_ops) WHERE " + index.predicate());
          built.add(index);
        }
        java.util.Set<String> neededNames = new java.util.HashSet<>();
        needed.forEach(i -> neededNames.add(i.name()));
        for (String name : vectorIndexNames(false)) {
          if ((name.startsWith(VECTOR_INDEX_PREFIX) || name.startsWith(CHUNK_VECTOR_INDEX_PREFIX)) && !neededNames.contains(name)) {
            s.execute("DROP INDEX CONCURRENTLY IF EXISTS " + SCHEMA + "." + name);
          }
        }
      } finally {
        s.execute("SELECT pg_advisory_unlock(hashtext('" + SCHEMA + ".buildVectorIndexes'))");
      }
    }
    return built;
  }

  /** The chunk table's embedding column as stored: its dimension (-1 without a table) and whether every row must have one. */
  private record EmbeddingColumn(int dimension, boolean required) {}

  private static EmbeddingColumn embeddingColumn(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT a.atttypmod, a.attnotnull FROM pg_attribute a JOIN pg_class t ON t.oid = a.attrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
            + " WHERE n.nspname = ? AND t.relname = 'chunks' AND a.attname = 'embedding'")) {
      ps.setString(1, SCHEMA);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new EmbeddingColumn(rs.getInt(1), rs.getBoolean(2)) : new EmbeddingColumn(-1, false);
      }
    }
  }

  /** Stored chunks of one database (all tables, or one table when given), by id. */
  public Map<String, Stored> stored(String databaseId, Optional<String> table) throws SQLException {
    String sql = "SELECT id, table_name, kind, content_hash, embed_hash, model_id, version FROM " + SCHEMA + ".chunks WHERE database_id = ?"
        + (table.isPresent() ? " AND table_name = ?" : "");
    Map<String, Stored> out = new HashMap<>();
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, databaseId);
      if (table.isPresent()) {
        ps.setString(2, table.get());
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), new Stored(rs.getString(1), rs.getString(2), ChunkKind.valueOf(rs.getString(3).toUpperCase()),
              rs.getString(4), rs.getString(5), rs.getString(6), rs.getLong(7)));
        }
      }
    }
    return out;
  }

  @Override
  public Map<String, ChunkDiff.Previous> previous(String databaseId, Optional<String> table) throws SQLException {
    Map<String, ChunkDiff.Previous> out = new HashMap<>();
    stored(databaseId, table).forEach((id, s) -> out.put(id, new ChunkDiff.Previous(s.contentHash(), s.modelId())));
    return out;
  }

  /** Inserts or updates chunks with their vectors; a stored row with a higher version wins. Returns the rows written. */
  public int upsert(List<Chunk> chunks, List<float[]> vectors, String modelId, long version) throws SQLException {
    if (chunks.size() != vectors.size()) {
      throw new IllegalArgumentException(chunks.size() + " chunks but " + vectors.size() + " vectors");
    }
    List<Row> rows = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      rows.add(new Row(chunks.get(i), vectors.get(i), version));
    }
    return written(rows, List.of(), List.of(), modelId)[0];
  }

  /** Deletes chunks by id unless a newer version has rewritten them. Returns the rows deleted. */
  public int delete(Collection<String> ids, long version) throws SQLException {
    return written(List.of(), ids.stream().map(id -> new Removal(id, version)).toList(), List.of(), "")[1];
  }

  /**
   * One transaction: the rows as one JDBC batch of upserts (vectors bound as parameters), then the
   * removals as one statement. A row whose stored content and model are the same is not rewritten:
   * an update would add a new tuple, and with it an HNSW entry, for nothing (a re-index of an
   * unchanged schema would pay the graph insert for every chunk). Last, each table written whole
   * loses its other chunks, as one statement for all of them.
   */
  @Override
  public void write(List<Row> rows, List<Removal> removals, List<Whole> wholes, String modelId) throws SQLException {
    written(rows, removals, wholes, modelId);
  }

  /** {@link #write}, returning the rows upserted and deleted. */
  private int[] written(List<Row> rows, List<Removal> removals, List<Whole> wholes, String modelId) throws SQLException {
    if (rows.isEmpty() && removals.isEmpty() && wholes.isEmpty()) {
      return new int[2];
    }
    String upsert = "INSERT INTO " + SCHEMA + ".chunks (id, database_id, table_name, kind, subject, related_tables, keywords,"
        + " token_estimate, embed_text, prompt_text, embed_hash, content_hash, model_id, embedding, version)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        + " ON CONFLICT (id) DO UPDATE SET database_id = EXCLUDED.database_id, table_name = EXCLUDED.table_name,"
        + " kind = EXCLUDED.kind, subject = EXCLUDED.subject, related_tables = EXCLUDED.related_tables,"
        + " keywords = EXCLUDED.keywords, token_estimate = EXCLUDED.token_estimate, embed_text = EXCLUDED.embed_text,"
        + " prompt_text = EXCLUDED.prompt_text, embed_hash = EXCLUDED.embed_hash, content_hash = EXCLUDED.content_hash,"
        + " model_id = EXCLUDED.model_id, embedding = EXCLUDED.embedding, version = EXCLUDED.version, updated_at = now()"
        + " WHERE " + SCHEMA + ".chunks.version <= EXCLUDED.version AND (" + SCHEMA + ".chunks.content_hash, " + SCHEMA
        + ".chunks.model_id) IS DISTINCT FROM (EXCLUDED.content_hash, EXCLUDED.model_id)";
    String delete = "DELETE FROM " + SCHEMA + ".chunks c USING unnest(?::text[], ?::bigint[]) AS d(id, version)"
        + " WHERE c.id = d.id AND c.version <= d.version";
    // Chunk ids hash the database and table, so one list of every kept id serves all the tables.
    String others = "DELETE FROM " + SCHEMA + ".chunks c USING unnest(?::text[], ?::text[], ?::bigint[]) AS w(database_id, table_name, version)"
        + " WHERE c.database_id = w.database_id AND c.table_name = w.table_name AND c.version <= w.version AND NOT (c.id = ANY(?::text[]))";
    // Rows in the order of the texts they lock (see TEXTS): two writers that share texts then take them in
    // one order and do not deadlock; one that still does (a removal against an insert) is tried again.
    List<Row> ordered = new ArrayList<>(rows);
    ordered.sort(java.util.Comparator.comparing((Row r) -> r.chunk().databaseId()).thenComparing(r -> r.chunk().kind().label())
        .thenComparing(r -> r.chunk().embedHash()));
    for (int attempt = 1; ; attempt++) {
      try {
        return writeInOneTransaction(ordered, removals, wholes, modelId, upsert, delete, others);
      } catch (SQLException e) {
        if (!DEADLOCK_DETECTED.equals(e.getSQLState()) || attempt >= WRITE_ATTEMPTS) {
          throw e;
        }
        LOG.warn("chunk write attempt {} of {} lost a deadlock on shared texts, trying again", attempt, WRITE_ATTEMPTS);
      }
    }
  }

  /** PostgreSQL's SQLSTATE for a transaction it aborted to break a deadlock. */
  private static final String DEADLOCK_DETECTED = "40P01";
  /** Attempts at one write that loses deadlocks. */
  private static final int WRITE_ATTEMPTS = 3;

  private int[] writeInOneTransaction(List<Row> rows, List<Removal> removals, List<Whole> wholes, String modelId, String upsert,
                                      String delete, String others) throws SQLException {
    int[] n = new int[2];
    try (Connection c = db.open()) {
      PGvector.registerTypes(c);
      c.setAutoCommit(false);
      try {
        if (!rows.isEmpty()) {
          try (PreparedStatement ps = c.prepareStatement(upsert)) {
            for (Row r : rows) {
              Chunk k = r.chunk();
              ps.setString(1, k.id());
              ps.setString(2, k.databaseId());
              ps.setString(3, k.table());
              ps.setString(4, k.kind().label());
              ps.setString(5, k.subject().orElse(null));
              ps.setArray(6, textArray(c, k.relatedTables()));
              ps.setArray(7, textArray(c, k.keywords()));
              ps.setInt(8, k.tokenEstimate());
              ps.setString(9, k.embedText());
              ps.setString(10, k.promptText());
              ps.setString(11, k.embedHash());
              ps.setString(12, k.contentHash());
              ps.setString(13, modelId);
              if (r.vector() == null) {
                ps.setNull(14, java.sql.Types.OTHER);
              } else {
                ps.setObject(14, new PGvector(r.vector()));
              }
              ps.setLong(15, r.version());
              ps.addBatch();
            }
            for (int k : ps.executeBatch()) {
              n[0] += Math.max(k, 0);
            }
          }
        }
        if (!removals.isEmpty() || !wholes.isEmpty()) {
          // A pooled connection keeps its prepared deletes, and PostgreSQL their generic plan, made while the chunk
          // table was near empty: a scan of the whole table, kept as it grew until statistics came. Planned for each
          // call, they find their rows by index (at 10,000 tables the chunk table was read whole 462 and 534 times in
          // an initial index, about 10 M rows; 14 and 15 times, 408 rows, with the deletes planned per call).
          try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL plan_cache_mode = force_custom_plan");
          }
        }
        if (!removals.isEmpty()) {
          try (PreparedStatement ps = c.prepareStatement(delete)) {
            ps.setArray(1, c.createArrayOf("text", removals.stream().map(Removal::id).toArray()));
            ps.setArray(2, c.createArrayOf("bigint", removals.stream().map(Removal::version).toArray()));
            n[1] = ps.executeUpdate();
          }
        }
        if (!wholes.isEmpty()) {
          try (PreparedStatement ps = c.prepareStatement(others)) {
            ps.setArray(1, c.createArrayOf("text", wholes.stream().map(Whole::databaseId).toArray()));
            ps.setArray(2, c.createArrayOf("text", wholes.stream().map(Whole::table).toArray()));
            ps.setArray(3, c.createArrayOf("bigint", wholes.stream().map(Whole::version).toArray()));
            ps.setArray(4, c.createArrayOf("text", wholes.stream().flatMap(w -> w.ids().stream()).toArray()));
            n[1] += ps.executeUpdate();
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
    return n;
  }

  private static Array textArray(Connection c, List<String> values) throws SQLException {
    return c.createArrayOf("text", values.toArray());
  }

  /**
   * Reclaims dead rows after bulk rewrites: deleted texts otherwise stay in the HNSW graph and
   * slow every filtered scan until autovacuum comes by.
   */
  public void vacuum() throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      s.execute("VACUUM ANALYZE " + SCHEMA + ".chunks");
      s.execute("VACUUM ANALYZE " + SCHEMA + "." + TEXTS);
    }
  }

  /** Every stored chunk of a database, as the chunker made it (vectors stay in the database). */
  public List<Chunk> load(String databaseId) throws SQLException {
    return chunks(databaseId, null);
  }

  /** The stored chunks of some tables (model names) of a database, by table then id: what an update of one table reads. */
  @Override
  public List<Chunk> load(String databaseId, Collection<String> tables) throws SQLException {
    return tables.isEmpty() ? List.of() : chunks(databaseId, tables);
  }

  /** Chunks of a database (of some tables, or all) and the vectors of their searched texts. */
  public record ChunksWithVectors(List<Chunk> chunks, Map<String, float[]> vectors) {}

  /**
   * The stored chunks of a database (of {@code tables}, or all when null), with their texts' vectors
   * ({@link #loadWithVectors}) when {@code withVectors}, else without any: what an index that holds its
   * vectors, or one that searches the store, reads.
   */
  public ChunksWithVectors load(String databaseId, Collection<String> tables, boolean withVectors) throws SQLException {
    if (withVectors) {
      return loadWithVectors(databaseId, tables);
    }
    return new ChunksWithVectors(tables == null ? load(databaseId) : load(databaseId, tables), Map.of());
  }

  /**
   * The stored chunks of a database (of {@code tables}, or all when null) and the vectors of their
   * searched texts by {@link dev.schemarag.core.retrieval.ChunkVectors#key}, read in one snapshot: a
   * write between two reads would leave a chunk without its text's vector.
   */
  public ChunksWithVectors loadWithVectors(String databaseId, Collection<String> tables) throws SQLException {
    if (tables != null && tables.isEmpty()) {
      return new ChunksWithVectors(List.of(), Map.of());
    }
    try (Connection c = db.open()) {
      boolean autoCommit = c.getAutoCommit();
      int isolation = c.getTransactionIsolation();
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try {
        List<Chunk> chunks = chunks(c, databaseId, tables);
        Map<String, float[]> vectors = vectors(c, databaseId, tables);
        c.commit();
        return new ChunksWithVectors(chunks, vectors);
      } catch (SQLException e) {
        c.rollback();
        throw e;
      } finally {
        c.setTransactionIsolation(isolation);
        c.setAutoCommit(autoCommit);
      }
    }
  }

  /**
   * The vectors of a database's searched texts by {@link dev.schemarag.core.retrieval.ChunkVectors#key}: for chunks
   * this process has just written and holds already ({@link #loadWithVectors} reads both in one snapshot).
   */
  public Map<String, float[]> vectors(String databaseId) throws SQLException {
    try (Connection c = db.open()) {
      return vectors(c, databaseId, null);
    }
  }

  /** @param tables null: every table's texts */
  private static Map<String, float[]> vectors(Connection c, String databaseId, Collection<String> tables) throws SQLException {
    Map<String, float[]> vectors = new java.util.HashMap<>();
    // vector_send gives the binary form (dimensions, then big-endian floats): a quarter of the text form's bytes.
    String texts = SCHEMA + "." + TEXTS;
    try (PreparedStatement ps = c.prepareStatement(tables == null
        ? "SELECT kind, embed_hash, vector_send(embedding) FROM " + texts + " WHERE database_id = ?"
        : "SELECT t.kind, t.embed_hash, vector_send(t.embedding) FROM " + texts + " t WHERE t.database_id = ? AND (t.kind, t.embed_hash) IN"
            + " (SELECT kind, embed_hash FROM " + SCHEMA + ".chunks WHERE database_id = ? AND table_name = ANY (?))")) {
      ps.setString(1, databaseId);
      if (tables != null) {
        ps.setString(2, databaseId);
        ps.setArray(3, c.createArrayOf("text", tables.toArray()));
      }
      ps.setFetchSize(1000);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ChunkKind kind = ChunkKind.valueOf(rs.getString(1).toUpperCase(java.util.Locale.ROOT));
          vectors.put(dev.schemarag.core.retrieval.ChunkVectors.key(kind, rs.getString(2)), fromBinary(rs.getBytes(3)));
        }
      }
    }
    return vectors;
  }

  /**
   * Whether the query side holds this database's vectors in memory ({@code retrieval.dense.memory.texts}): it
   * has at most {@code maxTexts} distinct searched texts. Below that an exact scan in the JVM answers faster than
   * a round trip per kind (measured in the README); at 10,000 tables (21,633 texts) the two took as long, and
   * held vectors cost memory and every index update a copy of them.
   */
  public boolean vectorsHeld(String databaseId, int maxTexts) throws SQLException {
    if (maxTexts <= 0) {
      return false;
    }
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + SCHEMA + "." + TEXTS
        + " WHERE database_id = ?")) {
      ps.setString(1, databaseId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) <= maxTexts;
      }
    }
  }

  /** A vector from pgvector's binary form: two 16-bit integers (dimensions, unused), then the floats, big-endian. */
  static float[] fromBinary(byte[] bytes) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
    int dim = b.getShort() & 0xffff;
    b.getShort();
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = b.getFloat();
    }
    return v;
  }

  /** @param tables null: every table */
  private List<Chunk> chunks(String databaseId, Collection<String> tables) throws SQLException {
    try (Connection c = db.open()) {
      return chunks(c, databaseId, tables);
    }
  }

  private static List<Chunk> chunks(Connection c, String databaseId, Collection<String> tables) throws SQLException {
    List<Chunk> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT id, table_name, kind, subject, related_tables, keywords, token_estimate, embed_text, prompt_text, embed_hash, content_hash"
            + " FROM " + SCHEMA + ".chunks WHERE database_id = ?" + (tables == null ? "" : " AND table_name = ANY (?)")
            + " ORDER BY table_name, id")) {
      ps.setString(1, databaseId);
      if (tables != null) {
        ps.setArray(2, c.createArrayOf("text", tables.toArray()));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Chunk(rs.getString(1), databaseId, rs.getString(2), ChunkKind.valueOf(rs.getString(3).toUpperCase()),
              Optional.ofNullable(rs.getString(4)), List.of((String[]) rs.getArray(5).getArray()),
              List.of((String[]) rs.getArray(6).getArray()), rs.getInt(7), rs.getString(8), rs.getString(9), rs.getString(10),
              rs.getString(11)));
        }
      }
    }
    return out;
  }

  public long count(String databaseId) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + SCHEMA + ".chunks WHERE database_id = ?")) {
      ps.setString(1, databaseId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
