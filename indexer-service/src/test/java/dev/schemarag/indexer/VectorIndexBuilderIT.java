package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The HNSW indexes built over stored chunks once the indexer is quiet, in a database of the test's own. */
@Tag("integration")
class VectorIndexBuilderIT {

  private static final int DIMENSION = 8;
  private static final VectorIndexBuilder.Settings SETTINGS = new VectorIndexBuilder.Settings(Duration.ofMillis(500), "64MB");
  private ConnectionSource server;
  private ConnectionSource db;
  private String database;
  private PgChunkStore store;

  @BeforeEach
  void newDatabase() throws SQLException {
    String url = TestInfra.postgresUrl();
    server = ConnectionSource.of(url, null, null);
    database = "vector_index_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    sql(server, "CREATE DATABASE " + database);
    db = ConnectionSource.of(url.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database), null, null);
    store = new PgChunkStore(db);
    store.ensureSchema(DIMENSION);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    sql(server, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
  }

  private static void sql(ConnectionSource to, String... statements) throws SQLException {
    try (Connection c = to.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  private void storeChunks() throws SQLException {
    Column id = new Column("customer_id", "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty());
    Column name = new Column("name", "text", true, Optional.empty(), Optional.of("Customer name"), false, Optional.empty());
    SchemaModel model = new SchemaModel("it", List.of(new Table("sales.customers", Optional.of("Who buys"), List.of(id, name),
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
  }

  @Test
  void aNewStoreHasNoGraphsUntilChunksAreStoredAndTheIndexerIsQuiet() throws SQLException {
    assertThat(store.missingVectorIndexes()).isEqualTo(PgChunkStore.SEARCHED_KINDS);
    Duration[] idle = {Duration.ofHours(1)};
    try (VectorIndexBuilder builder = new VectorIndexBuilder(store, () -> idle[0], SETTINGS)) {
      builder.check();
      assertThat(builder.done()).as("nothing stored yet: a graph over no rows would take every row of the snapshot one by one").isFalse();
      assertThat(store.missingVectorIndexes()).isEqualTo(PgChunkStore.SEARCHED_KINDS);

      storeChunks();
      idle[0] = Duration.ofMillis(100);
      builder.check();
      assertThat(builder.done()).as("the indexer wrote a batch 100 ms ago: the snapshot may go on").isFalse();
      assertThat(store.missingVectorIndexes()).isEqualTo(PgChunkStore.SEARCHED_KINDS);

      idle[0] = Duration.ofSeconds(1);
      builder.check();
      assertThat(builder.done()).isTrue();
      assertThat(store.missingVectorIndexes()).isEmpty();
    }
  }

  @Test
  void aBuildMakesOnlyWhatIsMissingAndReplacesAnInvalidIndex() throws SQLException {
    storeChunks();
    assertThat(store.buildVectorIndexes("64MB")).isEqualTo(PgChunkStore.SEARCHED_KINDS);
    assertThat(store.buildVectorIndexes("64MB")).isEmpty();

    // What a concurrent build that failed half way leaves: an index PostgreSQL neither uses nor maintains.
    sql(db, "UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'schemarag_index.chunks_hnsw_column'::regclass");
    assertThat(store.missingVectorIndexes()).containsExactly(dev.schemarag.core.chunk.ChunkKind.COLUMN);
    assertThat(store.buildVectorIndexes("64MB")).containsExactly(dev.schemarag.core.chunk.ChunkKind.COLUMN);
    assertThat(store.missingVectorIndexes()).isEmpty();

    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("SET enable_seqscan = off");
      StringBuilder plan = new StringBuilder();
      try (ResultSet rs = s.executeQuery("EXPLAIN SELECT id FROM schemarag_index.chunks WHERE kind = 'column'"
          + " ORDER BY embedding <=> '[1,0,0,0,0,0,0,0]' LIMIT 3")) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
      assertThat(plan.toString()).contains("chunks_hnsw_column");
    }
  }

  @Test
  void aMemorySizePostgresqlCannotTakeIsAnErrorNamingIt() throws SQLException {
    storeChunks();
    assertThatThrownBy(() -> store.buildVectorIndexes("lots")).isInstanceOf(SQLException.class).hasMessageContaining("maintenance_work_mem");
    assertThat(store.missingVectorIndexes()).isEqualTo(PgChunkStore.SEARCHED_KINDS);
  }
}
