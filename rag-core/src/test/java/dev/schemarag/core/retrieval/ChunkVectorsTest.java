package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChunkVectorsTest {

  private static final int DIM = 16;

  private static Chunk column(String table, String column, String text) {
    return new Chunk(table + "#" + column, "erp", table, ChunkKind.COLUMN, Optional.of(column), List.of(), List.of(), 10, text, text,
        "h-" + text, "c-" + table + column + text);
  }

  private static Chunk overview(String table, String text) {
    return new Chunk(table + "#overview", "erp", table, ChunkKind.OVERVIEW, Optional.empty(), List.of(), List.of(), 10, text, text,
        "h-" + text, "c-" + table + text);
  }

  /** A fixed random vector per text, not of unit length: the search must normalise as the store's cosine does. */
  private static float[] vector(String text) {
    Random r = new Random(text.hashCode());
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) r.nextGaussian() * 3;
    }
    return v;
  }

  private static Map<String, float[]> vectors(List<Chunk> chunks) {
    Map<String, float[]> out = new HashMap<>();
    chunks.forEach(c -> out.put(ChunkVectors.key(c.kind(), c.embedHash()), vector(c.embedText())));
    return out;
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  private static List<Chunk> schema() {
    List<Chunk> chunks = new ArrayList<>();
    for (int t = 0; t < 30; t++) {
      chunks.add(overview("m.t" + t, "table " + t));
      for (int c = 0; c < 8; c++) {
        chunks.add(column("m.t" + t, "c" + c, "column " + c + " of table " + t));
      }
    }
    // Two regional copies say one text.
    chunks.add(column("benelux.staff", "hired_on", "date of hire"));
    chunks.add(column("turkey.staff", "hired_on", "date of hire"));
    return chunks;
  }

  @Test
  void findsTheExactNearestTextsAndGivesEachChunkOfATextItsSimilarity() throws Exception {
    List<Chunk> chunks = schema();
    ChunkVectors index = ChunkVectors.of(chunks, vectors(chunks));
    assertThat(index.texts()).isEqualTo(chunks.size() - 1);

    float[] q = vector("a question");
    List<DenseSearch.Hit> hits = index.nearest(ChunkKind.COLUMN, q, 10);
    // What a full scan by cosine ranks first, text by text.
    List<String> expected = chunks.stream().filter(c -> c.kind() == ChunkKind.COLUMN).map(Chunk::embedText).distinct()
        .sorted(Comparator.comparingDouble((String text) -> -cosine(q, vector(text)))).limit(10).toList();
    List<String> found = hits.stream().map(h -> textOf(chunks, h)).distinct().toList();
    assertThat(found).isEqualTo(expected);
    for (DenseSearch.Hit h : hits) {
      assertThat(h.similarity()).isCloseTo(cosine(q, vector(textOf(chunks, h))), org.assertj.core.data.Offset.offset(1e-5));
    }
    assertThat(hits).extracting(DenseSearch.Hit::similarity).isSortedAccordingTo(Comparator.reverseOrder());
    assertThat(index.nearest(ChunkKind.OVERVIEW, q, 5)).hasSize(5).allSatisfy(h -> assertThat(h.subject()).isEmpty());
    assertThat(index.nearest(ChunkKind.QUERY, q, 5)).isEmpty();

    // The limit counts texts: the shared text comes back once for each copy.
    List<DenseSearch.Hit> shared = index.nearest(ChunkKind.COLUMN, vector("date of hire"), 1);
    assertThat(shared).extracting(DenseSearch.Hit::table).containsExactlyInAnyOrder("benelux.staff", "turkey.staff");
    assertThat(shared).allSatisfy(h -> assertThat(h.similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5)));
  }

  private static String textOf(List<Chunk> chunks, DenseSearch.Hit h) {
    return chunks.stream().filter(c -> c.table().equals(h.table()) && c.subject().equals(h.subject())).findFirst().orElseThrow().embedText();
  }

  @Test
  void aChangedTableTakesBackItsOwnTextsOnly() throws Exception {
    List<Chunk> chunks = schema();
    ChunkVectors before = ChunkVectors.of(chunks, vectors(chunks));
    // benelux.staff's column gets a new text; turkey.staff keeps the shared one; m.t3 is dropped.
    Chunk renamed = column("benelux.staff", "hired_on", "first working day");
    ChunkVectors after = before.with(List.of("benelux.staff", "m.t3"), List.of(renamed),
        Map.of(ChunkVectors.key(ChunkKind.COLUMN, renamed.embedHash()), vector("first working day")));

    assertThat(after.nearest(ChunkKind.COLUMN, vector("date of hire"), 1)).extracting(DenseSearch.Hit::table).containsExactly("turkey.staff");
    assertThat(after.nearest(ChunkKind.COLUMN, vector("first working day"), 1)).extracting(DenseSearch.Hit::table)
        .containsExactly("benelux.staff");
    assertThat(after.nearest(ChunkKind.OVERVIEW, vector("x"), 100)).extracting(DenseSearch.Hit::table).doesNotContain("m.t3").hasSize(29);
    assertThat(after.texts()).isEqualTo(before.texts() - 9 + 1);
    // The version before answers as it did.
    assertThat(before.nearest(ChunkKind.COLUMN, vector("date of hire"), 1)).hasSize(2);
    assertThat(before.nearest(ChunkKind.OVERVIEW, vector("x"), 100)).hasSize(30);
  }

  @Test
  void aNewTextWithoutAVectorIsReportedNotLeftOut() throws Exception {
    List<Chunk> chunks = schema();
    ChunkVectors index = ChunkVectors.of(chunks, vectors(chunks));
    Chunk added = column("m.t1", "c9", "a text never embedded");
    assertThatThrownBy(() -> index.with(List.of("m.t1"), List.of(added), Map.of())).isInstanceOf(ChunkVectors.MissingVectors.class)
        .hasMessageContaining("1 chunk(s)").hasMessageContaining(added.id());
    assertThatThrownBy(() -> ChunkVectors.of(chunks, Map.of())).isInstanceOf(ChunkVectors.MissingVectors.class);
    // A text it holds already needs no vector: the table's own text, read again.
    Chunk same = chunks.stream().filter(c -> c.table().equals("m.t1") && c.kind() == ChunkKind.OVERVIEW).findFirst().orElseThrow();
    assertThat(index.with(List.of("m.t1"), List.of(same), Map.of()).nearest(ChunkKind.OVERVIEW, vector(same.embedText()), 1))
        .extracting(DenseSearch.Hit::table).containsExactly("m.t1");
  }

  @Test
  void withinAViewCountsTheChunksTheViewKeeps() throws Exception {
    List<Chunk> chunks = schema();
    ChunkVectors index = ChunkVectors.of(chunks, vectors(chunks));
    SchemaView view = new SchemaView("clerk", Map.of("m.t1", Set.of("c0", "c1"), "turkey.staff", Set.of("hired_on")));
    DenseSearch seen = index.within(view);
    assertThat(seen.nearest(ChunkKind.COLUMN, vector("x"), 10)).extracting(h -> h.table() + "." + h.subject().orElseThrow())
        .containsExactlyInAnyOrder("m.t1.c0", "m.t1.c1", "turkey.staff.hired_on");
    assertThat(seen.nearest(ChunkKind.COLUMN, vector("x"), 2)).hasSize(2);
    assertThat(seen.nearest(ChunkKind.OVERVIEW, vector("x"), 10)).extracting(DenseSearch.Hit::table).containsExactly("m.t1");
  }

  @Test
  void aVectorOfAnotherLengthIsRefusedWithBothLengths() throws Exception {
    List<Chunk> chunks = schema();
    ChunkVectors index = ChunkVectors.of(chunks, vectors(chunks));
    assertThatThrownBy(() -> index.nearest(ChunkKind.COLUMN, new float[DIM + 1], 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(DIM + 1)).hasMessageContaining(String.valueOf(DIM));
  }

  @Test
  void topGivesTheHighestScoresFirstAndTiesByPosition() {
    Random r = new Random(7);
    float[] scores = new float[500];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = r.nextInt(50);
    }
    int[] top = ChunkVectors.top(scores, 40);
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      all.add(i);
    }
    all.sort(Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparingInt(i -> i));
    assertThat(top).containsExactly(all.subList(0, 40).stream().mapToInt(Integer::intValue).toArray());
    assertThat(ChunkVectors.top(scores, 0)).isEmpty();
    assertThat(ChunkVectors.top(new float[] {1, 3, 2}, 5)).containsExactly(1, 2, 0);
  }

  /** More column texts than {@link ChunkVectors#GRAPH_TEXTS}: the columns are searched through a graph. */
  private static List<Chunk> largeSchema(int tables) {
    List<Chunk> chunks = new ArrayList<>();
    for (int t = 0; t < tables; t++) {
      chunks.add(overview("big.t" + t, "table " + t));
      for (int c = 0; c < 9; c++) {
        chunks.add(column("big.t" + t, "c" + c, "column " + c + " of table " + t));
      }
    }
    return chunks;
  }

  /** The texts an exact scan by cosine ranks first among the chunks' columns. */
  private static List<String> exactColumns(List<Chunk> chunks, float[] q, int limit) {
    return chunks.stream().filter(c -> c.kind() == ChunkKind.COLUMN).map(Chunk::embedText).distinct()
        .sorted(Comparator.comparingDouble((String text) -> -cosine(q, vector(text)))).limit(limit).toList();
  }

  @Test
  void aKindOverTheGraphSizeIsSearchedThroughTheGraphAndFindsWhatTheExactScanFinds() throws Exception {
    List<Chunk> chunks = largeSchema(700);
    ChunkVectors index = ChunkVectors.of(chunks, vectors(chunks));
    assertThat(index.graphOf(ChunkKind.COLUMN)).isNotNull();
    assertThat(index.graphOf(ChunkKind.OVERVIEW)).as("700 overview texts are scanned exactly").isNull();
    for (String question : List.of("a question", "another question", "who sold what")) {
      float[] q = vector(question);
      List<DenseSearch.Hit> hits = index.nearest(ChunkKind.COLUMN, q, 10);
      assertThat(hits.stream().map(h -> textOf(chunks, h)).toList()).isEqualTo(exactColumns(chunks, q, 10));
      for (DenseSearch.Hit h : hits) {
        assertThat(h.similarity()).isCloseTo(cosine(q, vector(textOf(chunks, h))), org.assertj.core.data.Offset.offset(1e-5));
      }
    }
  }

  @Test
  void aChangeKeepsTheGraphAndFindsTheNewTextAndNotTheGoneOnes() throws Exception {
    List<Chunk> chunks = largeSchema(700);
    ChunkVectors before = ChunkVectors.of(chunks, vectors(chunks));
    Chunk renamed = column("big.t5", "c0", "first working day");
    List<Chunk> t5 = new ArrayList<>(chunks.stream().filter(c -> c.table().equals("big.t5") && !c.subject().equals(Optional.of("c0"))).toList());
    t5.add(renamed);
    ChunkVectors after = before.with(List.of("big.t5", "big.t9"), t5,
        Map.of(ChunkVectors.key(ChunkKind.COLUMN, renamed.embedHash()), vector("first working day")));

    assertThat(after.graphOf(ChunkKind.COLUMN)).as("two tables of 700 changed: the graph is kept").isSameAs(before.graphOf(ChunkKind.COLUMN));
    assertThat(after.nearest(ChunkKind.COLUMN, vector("first working day"), 1)).extracting(h -> h.table() + "." + h.subject().orElseThrow())
        .containsExactly("big.t5.c0");
    for (String gone : List.of("column 0 of table 5", "column 3 of table 9")) {
      assertThat(after.nearest(ChunkKind.COLUMN, vector(gone), 20)).extracting(h -> textOf(chunks, h)).doesNotContain(gone);
      assertThat(before.nearest(ChunkKind.COLUMN, vector(gone), 1)).extracting(h -> textOf(chunks, h)).containsExactly(gone);
    }
    assertThat(after.within(new SchemaView("clerk", Map.of("big.t9", Set.of("c3"), "big.t5", Set.of("c0"))))
        .nearest(ChunkKind.COLUMN, vector("x"), 10)).extracting(h -> h.table() + "." + h.subject().orElseThrow()).containsExactly("big.t5.c0");
    assertThat(after.texts()).isEqualTo(before.texts() - 10);

    // Another change reads the text added since the graph from its tail, and its own again.
    ChunkVectors again = after.with(List.of("big.t6"), List.of(), Map.of());
    assertThat(again.nearest(ChunkKind.COLUMN, vector("first working day"), 1)).extracting(DenseSearch.Hit::table).containsExactly("big.t5");
    assertThat(again.graphOf(ChunkKind.COLUMN)).isSameAs(before.graphOf(ChunkKind.COLUMN));
  }

  @Test
  void manyChangedRowsBuildTheGraphAnew() throws Exception {
    List<Chunk> chunks = largeSchema(760);
    ChunkVectors before = ChunkVectors.of(chunks, vectors(chunks));
    List<String> dropped = new ArrayList<>();
    for (int t = 0; t < 80; t++) {
      dropped.add("big.t" + t);
    }
    ChunkVectors after = before.with(dropped, List.of(), Map.of());
    // 720 of 6,840 column rows gone, more than a tenth: the 6,120 left get a graph of their own.
    assertThat(after.graphOf(ChunkKind.COLUMN)).isNotNull().isNotSameAs(before.graphOf(ChunkKind.COLUMN));
    List<Chunk> left = chunks.stream().filter(c -> !dropped.contains(c.table())).toList();
    float[] q = vector("a question");
    assertThat(after.nearest(ChunkKind.COLUMN, q, 10).stream().map(h -> textOf(left, h)).toList()).isEqualTo(exactColumns(left, q, 10));
  }
}
