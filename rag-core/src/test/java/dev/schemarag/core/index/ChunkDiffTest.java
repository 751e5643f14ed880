package dev.schemarag.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChunkDiffTest {

  private static List<Chunk> chunks(List<Column> columns) {
    Table t = new Table("t", Optional.empty(), columns, Optional.empty());
    return Chunker.chunkAll(new SchemaModel("db", List.of(t), List.of()), Map.of());
  }

  private static Map<String, ChunkDiff.Previous> stored(List<Chunk> chunks, String model) {
    Map<String, ChunkDiff.Previous> m = new HashMap<>();
    chunks.forEach(c -> m.put(c.id(), new ChunkDiff.Previous(c.contentHash(), model)));
    return m;
  }

  @Test
  void anUnchangedTableHasNothingToWrite() {
    List<Chunk> c = chunks(List.of(Column.of("a", "int"), Column.of("b", "text")));
    ChunkDiff d = ChunkDiff.between(stored(c, "m"), c, "m");
    assertThat(d.isEmpty()).isTrue();
    assertThat(d.unchanged()).hasSize(c.size());
  }

  @Test
  void anAddedColumnAddsItsChunkAndUpdatesTheOverview() {
    List<Chunk> before = chunks(List.of(Column.of("a", "int")));
    List<Chunk> after = chunks(List.of(Column.of("a", "int"), Column.of("b", "text")));
    ChunkDiff d = ChunkDiff.between(stored(before, "m"), after, "m");
    assertThat(d.added()).singleElement().satisfies(c -> assertThat(c.column()).contains("b"));
    assertThat(d.updated()).singleElement().satisfies(c -> assertThat(c.kind().label()).isEqualTo("overview"));
    assertThat(d.removed()).isEmpty();
  }

  @Test
  void aDroppedColumnRemovesItsChunk() {
    List<Chunk> before = chunks(List.of(Column.of("a", "int"), Column.of("b", "text")));
    List<Chunk> after = chunks(List.of(Column.of("a", "int")));
    ChunkDiff d = ChunkDiff.between(stored(before, "m"), after, "m");
    assertThat(d.removed()).hasSize(1);
    assertThat(d.added()).isEmpty();
  }

  @Test
  void anotherEmbeddingModelRewritesEverything() {
    List<Chunk> c = chunks(List.of(Column.of("a", "int")));
    ChunkDiff d = ChunkDiff.between(stored(c, "old-model"), c, "new-model");
    assertThat(d.updated()).hasSize(c.size());
  }
}
