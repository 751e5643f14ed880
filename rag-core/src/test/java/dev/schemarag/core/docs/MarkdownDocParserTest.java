package dev.schemarag.core.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownDocParserTest {

  @TempDir Path dir;

  @Test
  void readsEverySectionOfASeedDoc() {
    TableDoc d = MarkdownDocParser.parse(SeedDocs.ORDERS);
    assertThat(d.table()).isEqualTo("orders");
    assertThat(d.purpose()).contains("One row per customer order, from checkout to delivery.");
    assertThat(d.businessContext()).get().asString().contains("finance reconciles");
    assertThat(d.columns()).containsOnlyKeys("order_id", "customer_id", "status", "total_amount", "ordered_at");
    assertThat(d.columns().get("status").domain()).contains("pending, paid, shipped, delivered, cancelled");
    assertThat(d.columns().get("order_id").nullable()).contains(false);
    assertThat(d.queryPatterns()).extracting(TableDoc.QueryPattern::name)
        .containsExactly("Revenue per month", "Open orders of a customer", "Orders by status");
    assertThat(d.queryPatterns().get(0).sql()).startsWith("SELECT date_trunc");
    assertThat(d.queryPatterns().get(0).useCase()).contains("monthly revenue report");
    assertThat(d.relatedTables()).contains("customers", "order_items");
    assertThat(d.examples()).hasSize(1);
    assertThat(d.notes()).contains("Cancelled orders keep their rows.");
  }

  @Test
  void aFileWithoutTheTitleIsMalformed() {
    assertThatThrownBy(() -> MarkdownDocParser.parse("## Purpose\nno title"))
        .isInstanceOf(MalformedDocException.class).hasMessageContaining("# Table: <name>");
  }

  @Test
  void anUnclosedCodeBlockIsMalformed() {
    assertThatThrownBy(() -> MarkdownDocParser.parse(SeedDocs.UNCLOSED_FENCE))
        .isInstanceOf(MalformedDocException.class).hasMessageContaining("never closed");
  }

  @Test
  void aMalformedFileIsSkippedWithAWarningNamingItWhileTheOthersLoad() throws IOException {
    Files.writeString(dir.resolve("orders.md"), SeedDocs.ORDERS);
    Files.writeString(dir.resolve("customers.md"), SeedDocs.CUSTOMERS);
    Files.writeString(dir.resolve("broken.md"), SeedDocs.UNCLOSED_FENCE);
    Files.writeString(dir.resolve("_index.md"), "# ERP\nThe demo database.");

    MarkdownDocParser.Result r = MarkdownDocParser.parseFolder(dir);

    assertThat(r.docs()).containsOnlyKeys("orders", "customers");
    assertThat(r.problems()).singleElement().satisfies(p -> {
      assertThat(p.file().getFileName().toString()).isEqualTo("broken.md");
      assertThat(p.reason()).contains("never closed");
    });
    assertThat(r.databaseDescription()).get().asString().contains("demo database");
  }

  @Test
  void aMissingFolderGivesNoDocs() throws IOException {
    assertThat(MarkdownDocParser.parseFolder(dir.resolve("none")).docs()).isEmpty();
  }
}
