package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgChunkStore.VectorIndex;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The HNSW indexes built over stored chunks once the indexer is quiet, in a database of the test's own. */
@Tag("integration")
class VectorIndexBuilderIT {

  private static final int DIMENSION = 8;
  private static final VectorIndexBuilder.Settings SETTINGS = new VectorIndexBuilder.Settings(Duration.ofMillis(500), "64MB");
  private TestInfra.ScratchDatabase database;
  private ConnectionSource db;
  private PgChunkStore store;

  @BeforeEach
  void newDatabase() throws SQLException {
    database = TestInfra.scratchDatabase("vector_index_it");
    db = ConnectionSource.of(database.url(), null, null);
    // Every database and kind gets its graph from one row here; the threshold has a test of its own.
    store = new PgChunkStore(db, 1);
    store.ensureSchema(DIMENSION);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    database.close();
  }

  /** The test's clock (nanoseconds) and the indexer's last write on it. */
  private final long[] now = {Duration.ofHours(1).toNanos()};
  private long lastWrite = 0;

  private Duration idle() {
    return Duration.ofNanos(now[0] - lastWrite);
  }

  private void pass(Duration d) {
    now[0] += d.toNanos();
  }

  private void storeChunks(String databaseId) throws SQLException {
    Column id = new Column("customer_id", "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty());
    Column name = new Column("name", "text", true, Optional.empty(), Optional.of("Customer name"), false, Optional.empty());
    SchemaModel model = new SchemaModel(databaseId, List.of(new Table("sales.customers", Optional.of("Who buys"), List.of(id, name),
        Optional.of("sales"))), List.of());
    List<Chunk> chunks = Chunker.chunkAll(model, Map.of());
    Random random = new Random(1);
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      float[] v = new float[DIMENSION];
      for (int d = 0; d < DIMENSION; d++) {
        v[d] = random.nextFloat() - 0.5f;
      }
      vectors.add(v);
    }
    store.upsert(chunks, vectors, "it-model", 1);
    lastWrite = now[0];
  }

  /** The searched kinds the chunks of {@link #storeChunks} hold, as the indexes they need. */
  private static List<VectorIndex> indexesOf(String databaseId) {
    return List.of(new VectorIndex(databaseId, ChunkKind.COLUMN), new VectorIndex(databaseId, ChunkKind.OVERVIEW));
  }

  private String plan(String query) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("SET enable_seqscan = off");
      StringBuilder plan = new StringBuilder();
      try (ResultSet rs = s.executeQuery("EXPLAIN " + query)) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
      return plan.toString();
    }
  }

  private static String nearest(VectorIndex index) {
    return "SELECT embed_hash FROM schemarag_index.chunk_texts WHERE " + index.predicate() + " ORDER BY embedding <=> '[1,0,0,0,0,0,0,0]' LIMIT 3";
  }

  private Set<String> vectorIndexNames() throws SQLException {
    Set<String> names = new HashSet<>();
    try (Connection c = db.open(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT indexname FROM pg_indexes WHERE schemaname = 'schemarag_index' AND indexdef LIKE '%USING hnsw%'")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }

  @Test
  void aNewStoreHasNoGraphsUntilChunksAreStoredAndTheIndexerIsQuiet() throws SQLException {
    assertThat(store.missingVectorIndexes()).isEmpty();
    try (VectorIndexBuilder builder = new VectorIndexBuilder(store, this::idle, SETTINGS, () -> now[0])) {
      builder.check();
      assertThat(builder.done()).as("nothing stored yet: a graph over no rows would take every row of the snapshot one by one").isFalse();

      storeChunks("it");
      assertThat(store.missingVectorIndexes()).isEqualTo(indexesOf("it"));
      pass(Duration.ofMillis(100));
      builder.check();
      assertThat(builder.done()).as("the indexer wrote a batch 100 ms ago: the snapshot may go on").isFalse();
      assertThat(store.missingVectorIndexes()).isEqualTo(indexesOf("it"));

      pass(Duration.ofSeconds(1));
      builder.check();
      assertThat(builder.done()).isTrue();
      assertThat(store.missingVectorIndexes()).isEmpty();
    }
  }

  @Test
  void aDatabaseThatArrivesLaterGetsItsOwnGraphOnceQuiet() throws SQLException {
    try (VectorIndexBuilder builder = new VectorIndexBuilder(store, this::idle, SETTINGS, () -> now[0])) {
      storeChunks("erp");
      pass(Duration.ofSeconds(1));
      builder.check();
      assertThat(builder.done()).isTrue();

      storeChunks("crm-eu");
      pass(Duration.ofSeconds(1));
      builder.check();
      assertThat(builder.done()).isTrue();
      assertThat(store.missingVectorIndexes()).isEmpty();
      assertThat(vectorIndexNames()).containsExactlyInAnyOrderElementsOf(
          java.util.stream.Stream.concat(indexesOf("erp").stream(), indexesOf("crm-eu").stream()).map(VectorIndex::name).toList());
    }
  }

  @Test
  void eachDatabasesSearchUsesItsOwnGraph() throws SQLException {
    storeChunks("small");
    storeChunks("o'brien-crm");
    store.buildVectorIndexes("64MB");
    for (String databaseId : List.of("small", "o'brien-crm")) {
      for (VectorIndex index : indexesOf(databaseId)) {
        assertThat(plan(nearest(index))).contains(index.name());
      }
    }
    assertThat(new VectorIndex("small", ChunkKind.COLUMN).name()).isNotEqualTo(new VectorIndex("SMALL", ChunkKind.COLUMN).name());
    assertThat(new VectorIndex("a".repeat(200), ChunkKind.OVERVIEW).name()).hasSizeLessThanOrEqualTo(63);
  }

  @Test
  void aBuildMakesOnlyWhatIsMissingAndReplacesAnInvalidIndex() throws SQLException {
    storeChunks("it");
    assertThat(store.buildVectorIndexes("64MB")).isEqualTo(indexesOf("it"));
    assertThat(store.buildVectorIndexes("64MB")).isEmpty();

    // What a concurrent build that failed half way leaves: an index PostgreSQL neither uses nor maintains.
    VectorIndex columns = new VectorIndex("it", ChunkKind.COLUMN);
    database.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'schemarag_index." + columns.name() + "'::regclass");
    assertThat(store.missingVectorIndexes()).containsExactly(columns);
    assertThat(store.buildVectorIndexes("64MB")).containsExactly(columns);
    assertThat(store.missingVectorIndexes()).isEmpty();
    assertThat(plan(nearest(columns))).contains(columns.name());
  }

  @Test
  void graphsNoDatabaseNeedsAreDroppedOnceTheirReplacementsExist() throws SQLException {
    storeChunks("kept");
    storeChunks("removed");
    // Graphs of earlier versions on the chunk table: one per kind for all databases, then one per database and kind.
    database.execute("CREATE INDEX chunks_hnsw_column ON schemarag_index.chunks USING hnsw (embedding vector_cosine_ops) WHERE kind = 'column'",
        "CREATE INDEX chunks_hnsw_column_kept ON schemarag_index.chunks USING hnsw (embedding vector_cosine_ops)"
            + " WHERE kind = 'column' AND database_id = 'kept'");
    store.buildVectorIndexes("64MB");
    assertThat(vectorIndexNames()).doesNotContain("chunks_hnsw_column", "chunks_hnsw_column_kept")
        .contains(new VectorIndex("removed", ChunkKind.COLUMN).name());

    // A removed source: its chunks are deleted, its graphs go at the next build.
    store.delete(store.stored("removed", Optional.empty()).keySet(), Long.MAX_VALUE);
    store.buildVectorIndexes("64MB");
    assertThat(vectorIndexNames()).containsExactlyInAnyOrderElementsOf(indexesOf("kept").stream().map(VectorIndex::name).toList());
  }

  @Test
  void aDatabaseWithFewerRowsThanTheThresholdIsSearchedExactlyWithoutAGraph() throws SQLException {
    storeChunks("tiny");
    PgChunkStore twoRowsUp = new PgChunkStore(db, 2);
    // One overview chunk and two column chunks: only the columns reach two rows.
    assertThat(twoRowsUp.neededVectorIndexes()).containsExactly(new VectorIndex("tiny", ChunkKind.COLUMN));
    twoRowsUp.buildVectorIndexes("64MB");
    VectorIndex overview = new VectorIndex("tiny", ChunkKind.OVERVIEW);
    assertThat(vectorIndexNames()).containsExactly(new VectorIndex("tiny", ChunkKind.COLUMN).name());
    assertThat(plan(nearest(overview))).contains("chunk_texts_pkey").doesNotContain("hnsw");
    try (VectorIndexBuilder builder = new VectorIndexBuilder(twoRowsUp, this::idle, SETTINGS, () -> now[0])) {
      pass(Duration.ofSeconds(1));
      builder.check();
      assertThat(builder.done()).as("every graph the stored rows need exists").isTrue();
    }
  }

  @Test
  void aMemorySizePostgresqlCannotTakeIsAnErrorNamingIt() throws SQLException {
    storeChunks("it");
    assertThatThrownBy(() -> store.buildVectorIndexes("lots")).isInstanceOf(SQLException.class).hasMessageContaining("maintenance_work_mem");
    assertThat(store.missingVectorIndexes()).isEqualTo(indexesOf("it"));
  }
}
