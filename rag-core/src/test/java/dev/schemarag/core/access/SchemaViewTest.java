package dev.schemarag.core.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaViewTest {

  /** sales.orders references hr.employees; hr.employees has a salary the sales role may not read. */
  static SchemaModel erp() {
    Table employees = new Table("hr.employees", Optional.of("Everyone employed"), List.of(
        new Column("employee_id", "int", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        Column.of("full_name", "text"), Column.of("salary", "numeric")), Optional.of("hr"));
    Table salaries = new Table("hr.salaries", Optional.of("Pay history"), List.of(Column.of("employee_id", "int"),
        Column.of("amount", "numeric")), Optional.of("hr"));
    Table orders = new Table("sales.orders", Optional.of("Customer orders"), List.of(
        new Column("order_id", "int", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        new Column("sales_rep_id", "int", true, Optional.empty(), Optional.empty(), false, Optional.of("hr.employees.employee_id")),
        Column.of("total_amount", "numeric")), Optional.of("sales"));
    return new SchemaModel("erp", List.of(employees, salaries, orders), List.of(
        new ForeignKey("orders_rep", "sales.orders", List.of("sales_rep_id"), "hr.employees", List.of("employee_id")),
        new ForeignKey("sal_emp", "hr.salaries", List.of("employee_id"), "hr.employees", List.of("employee_id"))));
  }

  static final SchemaView SALES = new SchemaView("sales_analyst", Map.of("sales.orders", Set.of("order_id", "sales_rep_id", "total_amount")));

  @Test
  void theRestrictedModelHoldsNoHiddenTableColumnOrKey() {
    SchemaModel seen = SALES.restrict(erp());
    assertThat(seen.tables()).extracting(Table::name).containsExactly("sales.orders");
    assertThat(seen.foreignKeys()).isEmpty();
    Column rep = seen.table("sales.orders").orElseThrow().column("sales_rep_id").orElseThrow();
    assertThat(rep.references()).as("a readable column does not say it points at a hidden table").isEmpty();
    assertThat(Chunker.compactDdl(seen, seen.table("sales.orders").orElseThrow())).doesNotContain("hr.");
  }

  @Test
  void columnPrivilegesHideSingleColumns() {
    SchemaView hrClerk = new SchemaView("clerk", Map.of("hr.employees", Set.of("employee_id", "full_name")));
    SchemaModel seen = hrClerk.restrict(erp());
    assertThat(seen.table("hr.employees").orElseThrow().columns()).extracting(Column::name).containsExactly("employee_id", "full_name");
    assertThat(hrClerk.covers(erp())).isFalse();
    List<Chunk> chunks = Chunker.chunk(erp(), erp().table("hr.employees"), Optional.empty());
    assertThat(chunks.stream().filter(hrClerk::keeps).filter(c -> c.kind() == ChunkKind.COLUMN).map(c -> c.column().orElseThrow()))
        .containsExactly("employee_id", "full_name");
  }

  @Test
  void chunksOfHiddenTablesRelationshipsAcrossTheViewAndPatternsReadingHiddenTablesAreDropped() {
    SchemaModel m = erp();
    TableDoc doc = new TableDoc("sales.orders", Optional.empty(), Optional.empty(), Map.of(), List.of(
        new TableDoc.QueryPattern("revenue per rep",
            "SELECT e.full_name, sum(o.total_amount) FROM sales.orders o JOIN hr.employees e ON e.employee_id = o.sales_rep_id GROUP BY 1",
            Optional.empty(), Optional.empty()),
        new TableDoc.QueryPattern("revenue", "SELECT sum(total_amount) FROM sales.orders", Optional.empty(), Optional.empty())),
        List.of(), List.of(), List.of(), Optional.empty());
    List<Chunk> orders = Chunker.chunk(m, m.table("sales.orders"), Optional.of(doc));
    List<Chunk> kept = orders.stream().filter(SALES::keeps).toList();
    assertThat(kept).extracting(Chunk::kind).doesNotContain(ChunkKind.RELATIONSHIP);
    assertThat(kept.stream().filter(c -> c.kind() == ChunkKind.QUERY).map(c -> c.subject().orElseThrow())).containsExactly("revenue");
    assertThat(Chunker.chunk(m, m.table("hr.salaries"), Optional.empty())).noneMatch(SALES::keeps);
  }

  @Test
  void aViewOfEverythingCoversTheModel() {
    SchemaView all = new SchemaView("reader", Map.of("hr.employees", Set.of("employee_id", "full_name", "salary"),
        "hr.salaries", Set.of("employee_id", "amount"), "sales.orders", Set.of("order_id", "sales_rep_id", "total_amount")));
    assertThat(all.covers(erp())).isTrue();
    assertThat(SALES.covers(erp())).isFalse();
  }
}
