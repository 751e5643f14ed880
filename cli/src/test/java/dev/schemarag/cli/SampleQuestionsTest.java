package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SampleQuestionsTest {

  private static Column pk(String name) {
    return new Column(name, "int", false, Optional.empty(), Optional.empty(), true, Optional.empty());
  }

  private static final SchemaModel MODEL = new SchemaModel("shop", List.of(
      new Table("sales.customers", Optional.empty(), List.of(pk("customer_id"), Column.of("name", "text"),
          Column.of("country", "text")), Optional.of("sales")),
      new Table("sales.orders", Optional.empty(), List.of(pk("order_id"), Column.of("customer_id", "int"),
          Column.of("ordered_on", "date"), Column.of("total", "numeric")), Optional.of("sales"))),
      List.of(new ForeignKey("fk", "sales.orders", List.of("customer_id"), "sales.customers", List.of("customer_id"))));

  private static final Map<String, TableDoc> DOCS = Map.of("sales.orders", new TableDoc("sales.orders", Optional.empty(), Optional.empty(),
      Map.of(), List.of(new TableDoc.QueryPattern("Monthly revenue", "SELECT 1", Optional.of("What is the revenue per month"), Optional.empty())),
      List.of(), List.of(), List.of(), Optional.empty()));

  @Test
  void everyKindComesEarlyAndEachSqlAnswersItsQuestion() {
    List<SampleQuestions.Gold> q = SampleQuestions.of(MODEL, DOCS);
    assertThat(q.subList(0, 4)).extracting(SampleQuestions.Gold::kind).containsExactly("pattern", "count", "list", "join");
    assertThat(q.get(0).question()).isEqualTo("What is the revenue per month?");
    assertThat(q).anySatisfy(g -> {
      assertThat(g.question()).isEqualTo("List the ordered on and total of ten orders");
      assertThat(g.sql()).isEqualTo("SELECT ordered_on, total FROM sales.orders ORDER BY order_id LIMIT 10");
    });
    assertThat(q).filteredOn(g -> g.kind().equals("join")).singleElement().satisfies(g ->
        assertThat(g.sql()).contains("FROM sales.orders f JOIN sales.customers r ON f.customer_id = r.customer_id"));
    assertThat(q).extracting(SampleQuestions.Gold::question).doesNotHaveDuplicates();
  }
}
