package dev.schemarag.core.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WarmUpQuestionsTest {

  private static Table table(String name, String comment, Column... columns) {
    return new Table(name, Optional.ofNullable(comment), List.of(columns), Optional.of(name.substring(0, name.indexOf('.'))));
  }

  private static final SchemaModel ERP = new SchemaModel("erp", List.of(
      table("hr.employees", "People employed by the company. One row each.", Column.of("employee_id", "int"), Column.of("full_name", "text")),
      table("hr.leave_requests", null, Column.of("leave_request_id", "int"), Column.of("employee_id", "int"),
          Column.of("status", "text").withValues(List.of("pending", "approved"))),
      table("sales.orders", "Customer orders", Column.of("order_id", "int"), Column.of("orderDate", "date")),
      table("sales.empty_view", null)),
      List.of(new ForeignKey("leave_employee", "hr.leave_requests", List.of("employee_id"), "hr.employees", List.of("employee_id"))));

  @Test
  void asksAboutEveryTableWithColumnsBeforeAnyTwice() {
    List<String> questions = WarmUpQuestions.of(ERP, 3);
    assertEquals(3, questions.size());
    assertTrue(questions.stream().anyMatch(q -> q.contains("employees")), questions.toString());
    assertTrue(questions.stream().anyMatch(q -> q.contains("leave requests")), questions.toString());
    assertTrue(questions.stream().anyMatch(q -> q.contains("orders")), questions.toString());
    assertTrue(questions.stream().noneMatch(q -> q.contains("empty view")), "a table without columns gives no question: " + questions);
  }

  @Test
  void namesAColumnsValueAForeignKeysTargetAndAQuestionNoTableAnswers() {
    List<String> questions = WarmUpQuestions.of(ERP, 40);
    assertTrue(questions.stream().anyMatch(q -> q.contains("pending")), "a sampled value is named: " + questions);
    assertTrue(questions.stream().anyMatch(q -> q.contains("by employees")), "a grouping by the table a key points at: " + questions);
    assertTrue(questions.stream().anyMatch(q -> q.contains("order date")), "a camel-case column read as words: " + questions);
    assertTrue(questions.stream().anyMatch(q -> q.startsWith("List the top 5 people employed by the company last month")), questions.toString());
    assertEquals(4, questions.stream().filter(q -> q.contains("weather") || q.contains("poem") || q.contains("football")
        || q.contains("French") || q.contains("bread")).count(), "every tenth question is off-topic: " + questions);
  }

  @Test
  void theSameSchemaAlwaysGivesTheSameQuestions() {
    assertEquals(WarmUpQuestions.of(ERP, 25), WarmUpQuestions.of(ERP, 25));
  }

  @Test
  void readsBenchmarkNamesWithTheirDatabasePrefixLeftOut() {
    assertEquals("singer in concert", WarmUpQuestions.words("concert_singer__singer_in_concert"));
    assertEquals("job titles", WarmUpQuestions.words("hr.job_titles"));
  }

  @Test
  void spreadsConsecutiveQuestionsOverALargeSchema() {
    List<Table> many = new ArrayList<>();
    IntStream.range(0, 100).forEach(i -> many.add(table(String.format("m%02d.t%02d", i / 10, i), null, Column.of("c", "int"))));
    List<String> questions = WarmUpQuestions.of(new SchemaModel("big", many, List.of()), 9);
    long distinct = questions.stream().map(q -> q.replaceAll(".*\\b(t\\d\\d)\\b.*", "$1")).distinct().count();
    assertEquals(9, distinct, questions.toString());
  }

  @Test
  void refusesANegativeCountAndAsksNothingOfAnEmptySchema() {
    assertThrows(IllegalArgumentException.class, () -> WarmUpQuestions.of(ERP, -1));
    assertEquals(List.of(), WarmUpQuestions.of(new SchemaModel("none", List.of(), List.of()), 10));
  }
}
