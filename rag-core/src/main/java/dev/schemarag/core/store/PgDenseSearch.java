package dev.schemarag.core.store;

import com.pgvector.PGvector;
import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.retrieval.DenseSearch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Dense search of one database's chunks in pgvector over one open connection and a prepared
 * statement: a question costs one round trip per chunk kind, no connection set-up. It walks each
 * distinct text once ({@link PgChunkStore#TEXTS}) and gives a text's similarity to every chunk that
 * says it. Not for concurrent use; give each worker its own.
 */
public final class PgDenseSearch implements DenseSearch, AutoCloseable {

  /** HNSW candidate list by default ({@code retrieval.dense.ef.search}): wide enough that filtering by database and kind still fills the limit. */
  public static final int EF_SEARCH = 200;
  /** HNSW candidate list of {@link #nearestEach}'s scans (pgvector's own default): each wants a few nearest only. */
  static final int EACH_EF_SEARCH = 40;
  /** pgvector's bounds for {@code hnsw.ef_search}. */
  static final int EF_SEARCH_MAX = 1000;

  private final ConnectionSource source;
  private final String databaseId;
  private final int efSearch;
  private Connection connection;
  private final java.util.Map<ChunkKind, PreparedStatement> queries = new java.util.EnumMap<>(ChunkKind.class);
  /** The same queries over a given set of tables (a role's view). */
  private final java.util.Map<ChunkKind, PreparedStatement> within = new java.util.EnumMap<>(ChunkKind.class);
  /** The nearest chunks to each of several vectors, in one statement. */
  private final java.util.Map<ChunkKind, PreparedStatement> each = new java.util.EnumMap<>(ChunkKind.class);

  public PgDenseSearch(ConnectionSource source, String databaseId) {
    this(source, databaseId, EF_SEARCH);
  }

  /** @param efSearch HNSW candidate list of each search, 1 to 1,000: larger finds more of the true nearest, slower */
  public PgDenseSearch(ConnectionSource source, String databaseId, int efSearch) {
    this.source = source;
    this.databaseId = databaseId;
    this.efSearch = validEfSearch(efSearch);
  }

  /** The value when pgvector takes it as {@code hnsw.ef_search}; otherwise an error that names the key. */
  public static int validEfSearch(int efSearch) {
    if (efSearch < 1 || efSearch > EF_SEARCH_MAX) {
      throw new IllegalArgumentException("retrieval.dense.ef.search must be between 1 and " + EF_SEARCH_MAX
          + " (pgvector's hnsw.ef_search), not " + efSearch);
    }
    return efSearch;
  }

  private void open() throws SQLException {
    if (connection != null && !connection.isClosed()) {
      return;
    }
    connection = source.open();
    PGvector.registerTypes(connection);
    try (Statement s = connection.createStatement()) {
      s.execute("SET hnsw.ef_search = " + efSearch);
      // A filtered HNSW scan must look past ef_search candidates, or filtered-out rows starve the result.
      s.execute("SET hnsw.iterative_scan = relaxed_order");
      // This connection runs only k-NN queries. The planner prices a 4,500-row exact scan below the
      // HNSW scan (measured: 8-20 ms against 3 ms), so its alternatives are switched off here.
      s.execute("SET enable_seqscan = off");
      s.execute("SET enable_bitmapscan = off");
    }
    queries.clear();
    within.clear();
    each.clear();
    String texts = PgChunkStore.SCHEMA + "." + PgChunkStore.TEXTS;
    String chunks = PgChunkStore.SCHEMA + ".chunks";
    String sameText = "c.database_id = t.database_id AND c.kind = t.kind AND c.embed_hash = t.embed_hash";
    for (ChunkKind kind : PgChunkStore.SEARCHED_KINDS) {
      // The kind and the database are constants of the statement, written as the partial HNSW index's
      // predicate, so that the planner picks that database's graph for this kind. The limit counts
      // distinct texts; each comes back once for every chunk that says it (copies of one table).
      PgChunkStore.VectorIndex index = new PgChunkStore.VectorIndex(databaseId, kind);
      String rows = index.predicate();
      queries.put(kind, connection.prepareStatement("SELECT c.table_name, c.subject, t.sim FROM (SELECT database_id, kind, embed_hash,"
          + " 1 - (embedding <=> ?) AS sim FROM " + texts + " WHERE " + rows + " ORDER BY embedding <=> ? LIMIT ?) t JOIN " + chunks
          + " c ON " + sameText));
      // A view's chunks, read through the (database_id, table_name) index with their texts' vectors and
      // ranked exactly (the plan PostgreSQL chose for 4 and for 2,000 tables of 20,000 texts), so a
      // narrow view still fills its limit, counted in chunks.
      within.put(kind, connection.prepareStatement("SELECT c.table_name, c.subject, 1 - (t.embedding <=> ?) AS sim FROM " + texts
          + " t JOIN " + chunks + " c ON " + sameText + " WHERE " + index.predicate("t") + " AND c.table_name = ANY (?)"
          + " ORDER BY t.embedding <=> ? LIMIT ?"));
      // One index scan per vector, all in one round trip; the vectors are bound as one text array, cast once.
      each.put(kind, connection.prepareStatement("SELECT q.i, c.table_name, c.subject, t.sim FROM unnest(?::text[]::vector[]) WITH ORDINALITY"
          + " AS q(v, i) CROSS JOIN LATERAL (SELECT database_id, kind, embed_hash, 1 - (embedding <=> q.v) AS sim FROM " + texts
          + " WHERE " + rows + " ORDER BY embedding <=> q.v LIMIT ?) t JOIN " + chunks + " c ON " + sameText));
    }
  }

  /** Searches only the view's tables in the store; hidden columns of readable tables are dropped after. */
  @Override
  public DenseSearch within(SchemaView view) {
    String[] tables = view.columns().keySet().toArray(String[]::new);
    return (kind, vector, limit) -> search(kind, vector, limit, Optional.of(view), tables);
  }

  @Override
  public List<Hit> nearest(ChunkKind kind, float[] vector, int limit) {
    return search(kind, vector, limit, Optional.empty(), new String[0]);
  }

  @Override
  public synchronized List<List<Hit>> nearestEach(ChunkKind kind, List<float[]> vectors, int limit) {
    if (vectors.isEmpty()) {
      return List.of();
    }
    try {
      open();
      PreparedStatement query = statement(each, kind);
      query.setArray(1, connection.createArrayOf("text", vectors.stream().map(v -> new PGvector(v).toString()).toArray(String[]::new)));
      query.setInt(2, limit);
      List<List<Hit>> out = new ArrayList<>(vectors.size());
      vectors.forEach(v -> out.add(new ArrayList<>(limit)));
      // A few nearest need a short HNSW candidate list, not the one that fills 200 column hits: set for this statement only.
      connection.setAutoCommit(false);
      try (Statement s = connection.createStatement()) {
        s.execute("SET LOCAL hnsw.ef_search = " + Math.min(efSearch, Math.max(EACH_EF_SEARCH, limit)));
        try (ResultSet rs = query.executeQuery()) {
          while (rs.next()) {
            out.get(rs.getInt(1) - 1).add(new Hit(rs.getString(2), Optional.ofNullable(rs.getString(3)), rs.getDouble(4)));
          }
        }
        connection.commit();
      } finally {
        connection.setAutoCommit(true);
      }
      out.forEach(hits -> hits.sort((a, b) -> Double.compare(b.similarity(), a.similarity())));
      return out.stream().map(List::copyOf).toList();
    } catch (SQLException e) {
      close();
      throw new StoreException("dense search failed: " + e.getMessage(), e);
    }
  }

  /** The prepared statement of a searched kind; any other kind is an error that names the searched ones. */
  private static PreparedStatement statement(java.util.Map<ChunkKind, PreparedStatement> statements, ChunkKind kind) {
    PreparedStatement query = statements.get(kind);
    if (query == null) {
      throw new IllegalArgumentException("dense search covers " + PgChunkStore.SEARCHED_KINDS + ", not " + kind);
    }
    return query;
  }

  private synchronized List<Hit> search(ChunkKind kind, float[] vector, int limit, Optional<SchemaView> view, String[] tables) {
    try {
      open();
      PreparedStatement query = statement(view.isPresent() ? within : queries, kind);
      PGvector v = new PGvector(vector);
      int p = 1;
      query.setObject(p++, v);
      if (view.isPresent()) {
        query.setArray(p++, connection.createArrayOf("text", tables));
      }
      query.setObject(p++, v);
      // Column privileges are rarer than table privileges: a little more covers the hidden columns.
      query.setInt(p, view.isPresent() && kind == ChunkKind.COLUMN ? limit * 2 : limit);
      List<Hit> out = new ArrayList<>(limit);
      try (ResultSet rs = query.executeQuery()) {
        while (rs.next()) {
          Hit h = new Hit(rs.getString(1), Optional.ofNullable(rs.getString(2)), rs.getDouble(3));
          if (view.isEmpty() || DenseSearch.visible(view.get(), kind, h)) {
            out.add(h);
          }
        }
      }
      // relaxed_order may return slightly out of order: the output is always by descending similarity.
      out.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
      // A view's limit counts chunks; the whole database's counts texts, each with all its chunks.
      return view.isPresent() && out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
    } catch (SQLException e) {
      close();
      throw new StoreException("dense search failed: " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException ignored) {
      // closing a broken connection
    }
    connection = null;
  }
}
