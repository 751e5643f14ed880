package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tables a documented query pattern's SQL reads, as the index keeps them across schema changes. */
class QueryPatternTablesTest {

  private static Table table(String name, String... columns) {
    return new Table(name, Optional.empty(), java.util.Arrays.stream(columns).map(c -> Column.of(c, "int")).toList(), Optional.of("sales"));
  }

  private static final SchemaModel MODEL = new SchemaModel("erp", List.of(
      table("sales.orders", "order_id", "customer_id", "total_amount"),
      table("sales.invoices", "invoice_id", "order_id"),
      table("sales.customers", "customer_id", "name")), List.of());

  private static final String ORDERS_DOC = """
      # Table: sales.orders

      ## Common Queries

      ### Query Pattern: Invoiced revenue
      ```sql
      WITH invoiced AS (SELECT o.* FROM sales.orders o JOIN sales.invoices i ON i.order_id = o.order_id)
      SELECT sum(total_amount) FROM invoiced
      ```
      - Use case: revenue that was invoiced

      ### Query Pattern: Purge old orders
      ```sql
      DELETE FROM sales.orders WHERE total_amount = 0
      ```
      - Use case: housekeeping
      """;

  private static SchemaIndex index() {
    return new SchemaIndex(MODEL, Chunker.chunkAll(MODEL, Map.of("sales.orders", MarkdownDocParser.parse(ORDERS_DOC))), RetrievalSettings.DEFAULT);
  }

  @Test
  void aPatternReadsTheTablesOfItsSqlButNotItsCtes() {
    assertThat(index().patternTables("sales.orders", "Invoiced revenue")).containsExactlyInAnyOrder("sales.orders", "sales.invoices");
  }

  @Test
  void aPatternTheGuardWouldRefuseOrThatIsNotIndexedReadsNothing() {
    assertThat(index().patternTables("sales.orders", "Purge old orders")).isEmpty();
    assertThat(index().patternTables("sales.orders", "No such pattern")).isEmpty();
  }

  @Test
  void aDroppedTableLeavesThePatternsThatReadIt() {
    SchemaIndex dropped = index().withTables(List.of(new SchemaIndex.TableChange("sales.invoices", Optional.empty(), List.of(), List.of())));
    assertThat(dropped.patternTables("sales.orders", "Invoiced revenue")).containsExactly("sales.orders");
  }
}
