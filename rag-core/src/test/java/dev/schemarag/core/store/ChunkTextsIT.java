package dev.schemarag.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.index.ChunkStore;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The searched texts table beside the chunks: each text once with how many chunks say it, kept by
 * the store's triggers through inserts, updates and deletes, and searched once for all its copies.
 */
@Tag("integration")
class ChunkTextsIT {

  private static final int DIMENSION = 8;
  private TestInfra.ScratchDatabase database;
  private ConnectionSource db;
  private PgChunkStore store;

  @BeforeEach
  void newDatabase() throws SQLException {
    database = TestInfra.scratchDatabase("chunk_texts_it");
    db = ConnectionSource.of(database.url(), null, null);
    store = new PgChunkStore(db);
    store.ensureSchema(DIMENSION);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    database.close();
  }

  private static Column column(String name, String comment) {
    return new Column(name, "text", true, Optional.empty(), Optional.of(comment), false, Optional.empty());
  }

  /** A region's copy of the departments table: its columns say what every other region's say. */
  private static Table departments(String region, Column... extra) {
    List<Column> columns = new ArrayList<>(List.of(column("name", "Department name"), column("cost_center", "Where its costs go")));
    columns.addAll(List.of(extra));
    return new Table(region + ".departments", Optional.of("Departments of " + region), columns, Optional.of(region));
  }

  private static List<Chunk> chunks(Table... tables) {
    return Chunker.chunkAll(new SchemaModel("erp", List.of(tables), List.of()), Map.of());
  }

  /** A vector that only the text decides, as an embedding model's. */
  private static float[] vectorOf(String embedHash) {
    Random random = new Random(embedHash.hashCode());
    float[] v = new float[DIMENSION];
    for (int d = 0; d < DIMENSION; d++) {
      v[d] = random.nextFloat() - 0.5f;
    }
    return v;
  }

  private void write(List<Chunk> chunks, long version) throws SQLException {
    store.upsert(chunks, chunks.stream().map(c -> vectorOf(c.embedHash())).toList(), "it-model", version);
  }

  /** Stored texts of the searched kinds: embed hash to how many chunks say it. */
  private Map<String, Integer> texts() throws SQLException {
    Map<String, Integer> out = new HashMap<>();
    try (Connection c = db.open(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT embed_hash, refs FROM " + PgChunkStore.SCHEMA + "." + PgChunkStore.TEXTS)) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getInt(2));
      }
    }
    return out;
  }

  /** What the texts should be: every searched chunk's embed hash, counted. */
  private Map<String, Integer> countedFromChunks() throws SQLException {
    Map<String, Integer> out = new HashMap<>();
    store.stored("erp", Optional.empty()).values().stream().filter(s -> PgChunkStore.SEARCHED_KINDS.contains(s.kind()))
        .forEach(s -> out.merge(s.embedHash(), 1, Integer::sum));
    return out;
  }

  private static Chunk column(List<Chunk> chunks, String table, String column) {
    return chunks.stream().filter(c -> c.table().equals(table) && c.subject().equals(Optional.of(column))).findFirst().orElseThrow();
  }

  @Test
  void copiesOfOneColumnAreOneTextAndEachComesBackFromOneSearchPlace() throws SQLException {
    List<Chunk> chunks = chunks(departments("hr_benelux"), departments("hr_turkey"));
    write(chunks, 1);
    Chunk benelux = column(chunks, "hr_benelux.departments", "name");
    Chunk turkey = column(chunks, "hr_turkey.departments", "name");
    assertThat(benelux.embedHash()).isEqualTo(turkey.embedHash());
    assertThat(texts()).containsEntry(benelux.embedHash(), 2).isEqualTo(countedFromChunks());

    try (PgDenseSearch dense = new PgDenseSearch(db, "erp")) {
      List<DenseSearch.Hit> hits = dense.nearest(ChunkKind.COLUMN, vectorOf(benelux.embedHash()), 1);
      assertThat(hits).extracting(DenseSearch.Hit::table).containsExactlyInAnyOrder("hr_benelux.departments", "hr_turkey.departments");
      assertThat(hits).extracting(DenseSearch.Hit::subject).containsOnly(Optional.of("name"));
      assertThat(hits.get(0).similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
      // Two places hold the name text and the next nearest one, whichever it is, with all its chunks.
      assertThat(dense.nearest(ChunkKind.COLUMN, vectorOf(benelux.embedHash()), 2)).hasSizeGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void aTextStaysWhileAnyChunkSaysItAndFollowsAChangedColumn() throws SQLException {
    List<Chunk> v1 = chunks(departments("hr_benelux"), departments("hr_turkey"));
    write(v1, 1);
    String name = column(v1, "hr_benelux.departments", "name").embedHash();

    // Turkey's name column gets a comment of its own: its text is new, Benelux's stays, counted once.
    Table turkey = departments("hr_turkey");
    List<Column> changed = new ArrayList<>(turkey.columns());
    changed.set(0, column("name", "Department name in Turkish"));
    List<Chunk> v2 = chunks(new Table(turkey.name(), turkey.comment(), changed, turkey.module()));
    write(v2, 2);
    String turkish = column(v2, "hr_turkey.departments", "name").embedHash();
    assertThat(texts()).containsEntry(name, 1).containsEntry(turkish, 1).isEqualTo(countedFromChunks());

    // Benelux goes: its texts go with it, the ones Turkey still says stay.
    store.delete(store.stored("erp", Optional.of("hr_benelux.departments")).keySet(), 3);
    assertThat(texts()).doesNotContainKey(name).containsEntry(turkish, 1).isEqualTo(countedFromChunks());

    store.delete(store.stored("erp", Optional.empty()).keySet(), 4);
    assertThat(texts()).isEmpty();
  }

  /** The comment on the update trigger: the hash of the statements that wrote both triggers. */
  private String triggersComment() throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT obj_description(oid, 'pg_trigger')"
        + " FROM pg_trigger WHERE tgname = '" + PgChunkStore.TRIGGER_UPDATE + "'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Test
  void aTableWrittenWholeLosesItsOtherChunksButNotOneANewerStepWrote() throws SQLException {
    Table before = departments("hr_benelux", column("budget", "Yearly budget"), column("floor", "Floor of its office"));
    write(chunks(before, departments("hr_turkey")), 5);
    // A later step (version 9) rewrote the floor column's chunk: a write of version 7 leaves it.
    Chunk newer = column(chunks(departments("hr_benelux", column("floor", "Floor of its new office"))), "hr_benelux.departments", "floor");
    write(List.of(newer), 9);

    // The table as it is now, without budget and floor: written whole at version 7, beside no removal.
    List<Chunk> now = chunks(departments("hr_benelux"));
    store.write(List.of(), List.of(), List.of(new ChunkStore.Whole("erp", "hr_benelux.departments", now.stream().map(Chunk::id).toList(), 7)),
        "it-model");

    Set<String> left = store.stored("erp", Optional.of("hr_benelux.departments")).keySet();
    Set<String> expected = new HashSet<>(now.stream().map(Chunk::id).toList());
    expected.add(newer.id());
    assertThat(left).isEqualTo(expected);
    assertThat(store.stored("erp", Optional.of("hr_turkey.departments"))).hasSize(chunks(departments("hr_turkey")).size());
    assertThat(texts()).isEqualTo(countedFromChunks());
  }

  @Test
  void aStartThatFindsTheTriggersItWouldWriteDoesNotWaitForAWriter() throws Exception {
    try (Connection writer = db.open(); Statement w = writer.createStatement()) {
      writer.setAutoCommit(false);
      // What every chunk write holds until it commits; replacing a trigger would wait for it.
      w.execute("LOCK TABLE " + PgChunkStore.SCHEMA + ".chunks IN ROW EXCLUSIVE MODE");
      ExecutorService starter = Executors.newSingleThreadExecutor();
      try {
        Future<?> start = starter.submit(() -> {
          store.ensureSchema(DIMENSION);
          return null;
        });
        // A start that waited for the writer would still wait here.
        start.get(60, java.util.concurrent.TimeUnit.SECONDS);
      } finally {
        writer.rollback();
        starter.shutdownNow();
      }
    }
  }

  @Test
  void aStartReplacesTriggersThatAnotherVersionWrote() throws SQLException {
    String current = triggersComment();
    assertThat(current).isNotBlank();
    database.execute("COMMENT ON TRIGGER " + PgChunkStore.TRIGGER_UPDATE + " ON " + PgChunkStore.SCHEMA + ".chunks IS 'another version'");

    store.ensureSchema(DIMENSION);
    assertThat(triggersComment()).isEqualTo(current);
    write(chunks(departments("hr_benelux"), departments("hr_turkey")), 1);
    assertThat(texts()).isEqualTo(countedFromChunks()).containsValue(2);
  }

  @Test
  void aStoreOfAnEarlierVersionGetsItsTextsCountedOnStart() throws SQLException {
    write(chunks(departments("hr_benelux"), departments("hr_turkey"), departments("hr_spain", column("budget", "Yearly budget"))), 1);
    Map<String, Integer> expected = countedFromChunks();
    // What an earlier version left: chunks only.
    database.execute("DROP TRIGGER " + PgChunkStore.TRIGGER_INSERT_DELETE + " ON " + PgChunkStore.SCHEMA + ".chunks",
        "DROP TRIGGER " + PgChunkStore.TRIGGER_UPDATE + " ON " + PgChunkStore.SCHEMA + ".chunks",
        "DROP TABLE " + PgChunkStore.SCHEMA + "." + PgChunkStore.TEXTS);

    store.ensureSchema(DIMENSION);
    assertThat(texts()).isEqualTo(expected).containsValue(3);
    store.ensureSchema(DIMENSION);
    assertThat(texts()).as("a second start counts nothing twice").isEqualTo(expected);
  }

  @Test
  void aRelationshipIsStoredWithoutAVectorAlsoInAStoreOfAnEarlierVersion() throws SQLException {
    // What an earlier version made: a vector required of every chunk.
    database.execute("ALTER TABLE " + PgChunkStore.SCHEMA + ".chunks ALTER COLUMN embedding SET NOT NULL");
    store.ensureSchema(DIMENSION);
    Table benelux = departments("hr_benelux");
    Table employees = new Table("hr_benelux.employees", Optional.of("Employees of hr_benelux"),
        List.of(column("name", "Full name"), column("department_name", "Where they work")), Optional.of("hr_benelux"));
    List<Chunk> chunks = Chunker.chunkAll(new SchemaModel("erp", List.of(benelux, employees), List.of(new dev.schemarag.core.schema.ForeignKey(
        "employees_department", "hr_benelux.employees", List.of("department_name"), "hr_benelux.departments", List.of("name")))), Map.of());
    long relationships = chunks.stream().filter(c -> c.kind() == ChunkKind.RELATIONSHIP).count();
    assertThat(relationships).isEqualTo(2);

    store.upsert(chunks, chunks.stream().map(c -> c.kind().embedded() ? vectorOf(c.embedHash()) : null).toList(), "it-model", 1);

    assertThat(store.stored("erp", Optional.empty())).hasSize(chunks.size());
    assertThat(texts()).isEqualTo(countedFromChunks());
    try (Connection c = db.open(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT kind, count(*) FROM " + PgChunkStore.SCHEMA + ".chunks WHERE embedding IS NULL GROUP BY kind")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("relationship");
      assertThat(rs.getLong(2)).isEqualTo(relationships);
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void writersThatShareTextsAllLandWhenTheyRunTogether() throws Exception {
    int regions = 40;
    List<List<Chunk>> perRegion = new ArrayList<>();
    for (int r = 0; r < regions; r++) {
      // Columns in another order in every region: writers meet the shared texts in different orders.
      List<Column> extra = new ArrayList<>(List.of(column("budget", "Yearly budget"), column("head", "Who leads it"),
          column("opened_on", "When it opened")));
      java.util.Collections.rotate(extra, r);
      perRegion.add(chunks(departments("hr_r" + r, extra.toArray(Column[]::new))));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (List<Chunk> region : perRegion) {
        writes.add(pool.submit(() -> {
          write(region, 1);
          return null;
        }));
      }
      for (Future<?> w : writes) {
        w.get();
      }
      assertThat(texts()).isEqualTo(countedFromChunks()).containsValue(regions);

      writes.clear();
      for (List<Chunk> region : perRegion.subList(0, regions / 2)) {
        writes.add(pool.submit(() -> {
          store.delete(region.stream().map(Chunk::id).toList(), 2);
          return null;
        }));
      }
      for (Future<?> w : writes) {
        w.get();
      }
      assertThat(texts()).isEqualTo(countedFromChunks()).containsValue(regions / 2);
    } finally {
      pool.shutdownNow();
    }
  }
}
