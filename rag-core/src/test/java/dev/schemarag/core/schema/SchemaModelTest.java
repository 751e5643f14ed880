package dev.schemarag.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.chunk.Chunker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaModelTest {

  private static Table t(String name) {
    return new Table(name, Optional.empty(), List.of(Column.of("id", "int"), Column.of("ref", "int")), Optional.empty());
  }

  private static ForeignKey fk(String from, String to) {
    return new ForeignKey(from + "_" + to, from, List.of("ref"), to, List.of("id"));
  }

  private static void assertSameAs(SchemaModel a, SchemaModel b) {
    assertThat(a.tables()).containsExactlyElementsOf(b.tables());
    assertThat(a.foreignKeys()).containsExactlyElementsOf(b.foreignKeys());
    for (Table t : b.tables()) {
      assertThat(a.outgoing(t.name())).as("outgoing " + t.name()).containsExactlyElementsOf(b.outgoing(t.name()));
      assertThat(a.incoming(t.name())).as("incoming " + t.name()).containsExactlyElementsOf(b.incoming(t.name()));
    }
  }

  @Test
  void changingTablesInPlaceGivesTheModelBuiltFromTheirNewState() {
    SchemaModel m = new SchemaModel("db", List.of(t("a"), t("b"), t("c"), t("d")),
        List.of(fk("b", "a"), fk("c", "a"), fk("d", "c"), fk("c", "d")));

    // a is dropped, e is added pointing at c and pointed at by d, b's key now points at d
    Map<String, Optional<Table>> changed = new LinkedHashMap<>();
    changed.put("a", Optional.empty());
    changed.put("e", Optional.of(t("e")));
    changed.put("b", Optional.of(t("b")));
    List<ForeignKey> edges = List.of(fk("e", "c"), fk("d", "e"), fk("b", "d"), fk("e", "c"), fk("b", "x"));
    SchemaModel next = m.withTables(changed, edges);

    List<ForeignKey> expected = new ArrayList<>(List.of(fk("d", "c"), fk("c", "d"), fk("e", "c"), fk("d", "e"), fk("b", "d")));
    assertSameAs(next, new SchemaModel("db", List.of(t("b"), t("c"), t("d"), t("e")), expected));
    assertThat(next.neighbours("c")).containsExactlyInAnyOrder("d", "e");
    assertThat(next.table("a")).isEmpty();
    // the model it came from is unchanged
    assertSameAs(m, new SchemaModel("db", List.of(t("a"), t("b"), t("c"), t("d")),
        List.of(fk("b", "a"), fk("c", "a"), fk("d", "c"), fk("c", "d"))));
  }

  @Test
  void neighboursFoundBeforeAChangeAreThoseOfTheNewStateAfterIt() {
    SchemaModel m = new SchemaModel("db", List.of(t("a"), t("b"), t("c"), t("d"), t("f")),
        List.of(fk("b", "a"), fk("c", "a"), fk("d", "c"), fk("f", "d")));
    // every table's neighbours found (and kept) on the version before
    m.tables().forEach(t -> m.neighbours(t.name()));

    Map<String, Optional<Table>> changed = new LinkedHashMap<>();
    changed.put("a", Optional.empty());
    changed.put("e", Optional.of(t("e")));
    SchemaModel next = m.withTables(changed, List.of(fk("e", "c"), fk("d", "e")));

    SchemaModel fresh = new SchemaModel("db", List.of(t("b"), t("c"), t("d"), t("f"), t("e")),
        List.of(fk("d", "c"), fk("f", "d"), fk("e", "c"), fk("d", "e")));
    for (Table t : fresh.tables()) {
      assertThat(next.neighbours(t.name())).as(t.name()).containsExactlyInAnyOrderElementsOf(fresh.neighbours(t.name()));
    }
    assertThat(next.neighbours("a")).isEmpty();
    assertThat(m.neighbours("c")).as("the version before keeps its own").containsExactlyInAnyOrder("a", "d");
  }

  @Test
  void aKeyTouchingNoChangedTableIsRefused() {
    SchemaModel m = new SchemaModel("db", List.of(t("a"), t("b")), List.of());
    assertThatThrownBy(() -> m.withTables(Map.of("a", Optional.of(t("a"))), List.of(fk("b", "b"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("touches none of the changed tables");
  }

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
