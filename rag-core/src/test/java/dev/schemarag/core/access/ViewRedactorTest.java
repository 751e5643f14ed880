package dev.schemarag.core.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ViewRedactorTest {

  private static final SchemaView CLERK = new SchemaView("clerk", Map.of("hr.employees", Set.of("employee_id", "full_name"),
      "sales.orders", Set.of("order_id", "sales_rep_id", "total_amount")));

  @Test
  void aDatabaseHintNamingAHiddenColumnIsRedacted() {
    ViewRedactor r = new ViewRedactor(SchemaViewTest.erp(), CLERK);
    String pg = "ERROR: column \"salry\" does not exist\n  Hint: Perhaps you meant to reference the column \"employees.salary\".";
    String out = r.redact(pg, "SELECT salry FROM hr.employees");
    assertThat(out).doesNotContain("salary").contains("salry").contains(ViewRedactor.HIDDEN);
  }

  @Test
  void hiddenTablesAreRedactedButNamesTheSqlWroteStay() {
    ViewRedactor r = new ViewRedactor(SchemaViewTest.erp(), CLERK);
    assertThat(r.redact("relation hr.salaries is read by the plan", "SELECT 1")).doesNotContain("salaries");
    assertThat(r.redact("permission denied for table salaries", "SELECT amount FROM hr.salaries"))
        .as("echoing what the SQL wrote discloses nothing").contains("salaries");
  }

  @Test
  void readableNamesAndOrdinaryWordsStay() {
    ViewRedactor r = new ViewRedactor(SchemaViewTest.erp(), CLERK);
    String msg = "column total_amount of sales.orders must appear in the GROUP BY clause";
    assertThat(r.redact(msg, "")).isEqualTo(msg);
  }

  @Test
  void nothingIsHiddenFromAViewOfEverything() {
    SchemaView all = new SchemaView("reader", Map.of("hr.employees", Set.of("employee_id", "full_name", "salary"),
        "hr.salaries", Set.of("employee_id", "amount"), "sales.orders", Set.of("order_id", "sales_rep_id", "total_amount")));
    assertThat(new ViewRedactor(SchemaViewTest.erp(), all).nothingHidden()).isTrue();
  }
}
