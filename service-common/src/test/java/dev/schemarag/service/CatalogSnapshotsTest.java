package dev.schemarag.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.events.catalog.TableSnapshot;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CatalogSnapshotsTest {

  private static Column pk(String n) {
    return new Column(n, "integer", false, Optional.empty(), Optional.empty(), true, Optional.empty());
  }

  private final SchemaModel model = new SchemaModel("erp", List.of(
      new Table("hr.employees", Optional.of("Staff"), List.of(pk("id"),
          new Column("manager_id", "integer", true, Optional.empty(), Optional.of("line manager"), false, Optional.of("hr.employees.id")),
          new Column("department_id", "integer", false, Optional.empty(), Optional.empty(), false, Optional.of("hr.departments.id"))),
          Optional.of("hr")),
      new Table("hr.departments", Optional.empty(), List.of(pk("id"), Column.of("name", "text")), Optional.of("hr")),
      new Table("sales.orders", Optional.empty(), List.of(pk("id"),
          new Column("rep_id", "integer", true, Optional.empty(), Optional.empty(), false, Optional.of("hr.employees.id"))),
          Optional.of("sales"))),
      List.of(new ForeignKey("emp_manager_fk", "hr.employees", List.of("manager_id"), "hr.employees", List.of("id")),
          new ForeignKey("emp_dept_fk", "hr.employees", List.of("department_id"), "hr.departments", List.of("id")),
          new ForeignKey("order_rep_fk", "sales.orders", List.of("rep_id"), "hr.employees", List.of("id"))));

  @Test
  void aSnapshotChunksExactlyLikeTheWholeModel() {
    TableSnapshot s = CatalogSnapshots.of(model, "hr.employees", 1, null);
    assertThat(s.getSchemaName()).isEqualTo("hr");
    assertThat(s.getForeignKeys()).hasSize(2);
    assertThat(s.getReferencedBy()).hasSize(2);
    SchemaModel one = CatalogSnapshots.toModel(s);
    List<Chunk> fromSnapshot = Chunker.chunk(one, one.table("hr.employees"), Optional.empty());
    List<Chunk> fromModel = Chunker.chunk(model, model.table("hr.employees"), Optional.empty());
    assertThat(fromSnapshot.stream().map(Chunk::contentHash).toList()).isEqualTo(fromModel.stream().map(Chunk::contentHash).toList());
  }

  @Test
  void theHashChangesWithTheCatalogAndNotWithTheCaptureTime() {
    TableSnapshot a = CatalogSnapshots.of(model, "hr.departments", 1, null);
    TableSnapshot b = CatalogSnapshots.of(model, "hr.departments", 2, 5L);
    assertThat(a.getCatalogHash()).isEqualTo(b.getCatalogHash());
    SchemaModel commented = new SchemaModel("erp", List.of(new Table("hr.departments", Optional.of("Org units"),
        List.of(pk("id"), Column.of("name", "text")), Optional.of("hr"))), List.of());
    assertThat(CatalogSnapshots.of(commented, "hr.departments", 1, null).getCatalogHash()).isNotEqualTo(a.getCatalogHash());
  }

  @Test
  void aCategoricalColumnsValuesTravelWithTheSnapshotAndChangeItsHash() {
    TableSnapshot plain = CatalogSnapshots.of(model, "hr.departments", 1, null);
    SchemaModel sampled = new SchemaModel("erp", List.of(new Table("hr.departments", Optional.empty(),
        List.of(pk("id"), Column.of("name", "text").withValues(List.of("Engineering", "Sales"))), Optional.of("hr"))), List.of());
    TableSnapshot s = CatalogSnapshots.of(sampled, "hr.departments", 1, null);
    assertThat(s.getColumns().get(1).getValues()).containsExactly("Engineering", "Sales");
    assertThat(CatalogSnapshots.toModel(s).table("hr.departments").orElseThrow().column("name").orElseThrow().values())
        .containsExactly("Engineering", "Sales");
    assertThat(s.getCatalogHash()).isNotEqualTo(plain.getCatalogHash());
    // A table whose columns carry no values hashes as before values were read, so an upgrade re-embeds nothing of it.
    assertThat(plain.getCatalogHash()).isEqualTo(CatalogSnapshots.hash(plain));
    assertThat(plain.getColumns()).allSatisfy(c -> assertThat(c.getValues()).isEmpty());
  }

  @Test
  void publicTablesKeepTheirBareName() {
    assertThat(CatalogSnapshots.QualifiedName.ofModelName("orders")).isEqualTo(new CatalogSnapshots.QualifiedName("public", "orders"));
    assertThat(new CatalogSnapshots.QualifiedName("public", "orders").modelName()).isEqualTo("orders");
    assertThat(new CatalogSnapshots.QualifiedName("hr", "employees").modelName()).isEqualTo("hr.employees");
  }
}
