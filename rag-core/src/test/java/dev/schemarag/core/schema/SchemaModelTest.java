package dev.schemarag.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunker;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaModelTest {

  private static Table table(String name) {
    return new Table(name, Optional.empty(), List.of(
        new Column("id", "int", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        new Column("ref_id", "int", true, Optional.empty(), Optional.empty(), false, Optional.empty())), Optional.empty());
  }

  @Test
  void foreignKeysKeepOneOrderWhateverOrderTheyCameIn() {
    ForeignKey a = new ForeignKey("a_ref_fkey", "a", List.of("ref_id"), "hub", List.of("id"));
    ForeignKey b = new ForeignKey("b_ref_fkey", "b", List.of("ref_id"), "hub", List.of("id"));
    List<Table> tables = List.of(table("hub"), table("a"), table("b"));

    SchemaModel one = new SchemaModel("db", tables, List.of(a, b));
    SchemaModel other = new SchemaModel("db", tables, List.of(b, a));

    assertThat(other.incoming("hub")).isEqualTo(one.incoming("hub")).containsExactly(a, b);
    assertThat(Chunker.chunkAll(other, java.util.Map.of())).isEqualTo(Chunker.chunkAll(one, java.util.Map.of()));
  }
}
