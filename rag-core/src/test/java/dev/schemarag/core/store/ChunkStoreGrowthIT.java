package dev.schemarag.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.index.ChunkStore;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A store that grows under one pooled connection, as an initial index grows it: the writes made
 * while it was small must not leave later writes a plan that reads every stored chunk.
 */
@Tag("integration")
class ChunkStoreGrowthIT {

  private static final String MODEL = "it-model";
  private TestInfra.ScratchDatabase database;
  private PooledConnections pool;
  private PgChunkStore store;
  private long version;

  @BeforeEach
  void newDatabase() throws SQLException {
    database = TestInfra.scratchDatabase("chunk_growth_it");
    // One connection, as a busy indexer's pool hands the same one back: its prepared statements and their plans stay.
    pool = PooledConnections.of(database.url(), null, null, 1, "chunk-growth-it");
    store = new PgChunkStore(pool);
    store.ensureSchema(4);
    // Statistics lag behind a bulk load; here they never come, so nothing re-plans the statements for us.
    execute("ALTER TABLE " + PgChunkStore.SCHEMA + ".chunks SET (autovacuum_enabled = false)");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    pool.close();
    database.close();
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = ConnectionSource.of(database.url(), null, null).open(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static Table table(int n, String comment) {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      columns.add(new Column("field_" + i, "text", true, Optional.empty(), Optional.of("Field " + i + " of record " + n), false, Optional.empty()));
    }
    return new Table("sales.records_" + n, Optional.of(comment), columns, Optional.of("sales"));
  }

  /** The tables' chunks written whole, as the indexer writes a table it chunked again; returns how many. */
  private int writeWhole(List<Table> tables) throws SQLException {
    version++;
    List<Chunk> chunks = Chunker.chunkAll(new SchemaModel("erp", tables, List.of()), Map.of());
    List<ChunkStore.Row> rows = chunks.stream().map(c -> new ChunkStore.Row(c, new float[] {1, 0, 0, 0}, version)).toList();
    List<ChunkStore.Whole> wholes = tables.stream().map(t -> new ChunkStore.Whole("erp", t.name(),
        chunks.stream().filter(c -> c.table().equals(t.name())).map(Chunk::id).toList(), version)).toList();
    store.write(rows, List.of(), wholes, MODEL);
    return chunks.size();
  }

  /** The chunk table's statistics as the writing connection last reported them: sequential scans, inserted and updated rows. */
  private record TableStats(long seqScans, long inserted, long updated) {}

  private TableStats stats() throws SQLException {
    try (Connection c = ConnectionSource.of(database.url(), null, null).open(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT seq_scan, n_tup_ins, n_tup_upd FROM pg_stat_user_tables WHERE relid = '"
             + PgChunkStore.SCHEMA + ".chunks'::regclass")) {
      rs.next();
      return new TableStats(rs.getLong(1), rs.getLong(2), rs.getLong(3));
    }
  }

  @Test
  void aTableWrittenWholeFindsItsOldChunksByIndexOnceTheStoreHasGrown() throws SQLException {
    // While the store is small, enough writes that the connection's statements are prepared and planned once for all.
    long stored = 0;
    for (int n = 0; n < 12; n++) {
      stored += writeWhole(List.of(table(n, "Records of batch " + n)));
    }
    stored += writeWhole(IntStream.range(12, 3_000).mapToObj(n -> table(n, "Records of batch " + n)).toList());
    long inserted = stored;
    // A backend reports its statistics a moment after its transaction: the inserts counted say this write is in.
    await().atMost(Duration.ofSeconds(30)).until(() -> stats().inserted() == inserted);
    TableStats grown = stats();

    writeWhole(List.of(table(7, "Records of batch 7, as the migration renamed them")));
    await().atMost(Duration.ofSeconds(30)).until(() -> stats().updated() > grown.updated());

    assertThat(stats().seqScans()).as("sequential scans of the chunk table by the last write").isEqualTo(grown.seqScans());
  }
}
