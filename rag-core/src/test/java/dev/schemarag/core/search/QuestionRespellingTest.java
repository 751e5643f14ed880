package dev.schemarag.core.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuestionRespellingTest {

  private static final LexicalIndex INDEX = LexicalIndex.of(List.of(
      new LexicalIndex.Doc("hr.departments", "hr.departments", "overview", Optional.empty(),
          "departments: organisational units of the company, each with a manager and a cost centre"),
      new LexicalIndex.Doc("hr.employees.department_id", "hr.employees", "column", Optional.of("department_id"),
          "department id: the department an employee works in"),
      new LexicalIndex.Doc("finance.accounts", "finance.accounts", "overview", Optional.empty(),
          "accounts: the chart of accounts, one row per general ledger account"),
      new LexicalIndex.Doc("sales.orders", "sales.orders", "overview", Optional.empty(),
          "orders: customer sales orders with their status and total amount"),
      new LexicalIndex.Doc("sales.distributors", "sales.distributors", "overview", Optional.empty(),
          "distributors: resellers that buy from us")), 1.2, 0.75);

  @Test
  void respellsAWordTheSchemaDoesNotKnowToTheSchemaWordOneEditAway() {
    assertThat(INDEX.respelled("headcount per departmnet")).isEqualTo("headcount per department");
    assertThat(INDEX.respelled("list the chart of acounts")).isEqualTo("list the chart of accounts");
  }

  @Test
  void takesTwoEditsOnlyInLongWords() {
    assertThat(INDEX.respelled("staff per depratmnet")).isEqualTo("staff per department");
    assertThat(INDEX.respelled("list the chrat of acuonts")).isEqualTo("list the chrat of acuonts");
  }

  @Test
  void leavesKnownWordsOtherFormsOfKnownWordsAndUnrelatedWordsAlone() {
    assertThat(INDEX.respelled("How many orders per department?")).isEqualTo("How many orders per department?");
    // "ordered" is another form of the known "orders": not a misspelling
    assertThat(INDEX.respelled("customers who ordered twice")).isEqualTo("customers who ordered twice");
    // nothing in the schema is one edit from these
    assertThat(INDEX.respelled("What is the weather in Paris tomorrow?")).isEqualTo("What is the weather in Paris tomorrow?");
  }

  @Test
  void neverTakesAnEnglishWordForAMisspeltSchemaWord() {
    // one edit from the schema's "distributor", but a word of its own
    assertThat(INDEX.respelled("distribution of orders per month")).isEqualTo("distribution of orders per month");
    assertThat(EnglishWords.contains("distribution")).isTrue();
    assertThat(EnglishWords.contains("departmnet")).isFalse();
    assertThat(EnglishWords.size()).isGreaterThan(15_000);
  }

  @Test
  void leavesQuotedValuesNamesAndShortWordsAlone() {
    assertThat(INDEX.respelled("orders of 'Departmnet Store' this year")).isEqualTo("orders of 'Departmnet Store' this year");
    assertThat(INDEX.respelled("orders placed by Departmnet")).isEqualTo("orders placed by Departmnet");
    assertThat(INDEX.respelled("Departmnet heads")).isEqualTo("department heads");
    assertThat(INDEX.respelled("ordrs")).isEqualTo("ordrs");
  }

  @Test
  void anUpdatedIndexRespellsAgainstItsNewWords() {
    LexicalIndex next = INDEX.withTables(Map.of("hr.departments", List.of(), "hr.employees", List.of()));
    assertThat(next.respelled("headcount per departmnet")).isEqualTo("headcount per departmnet");
  }
}
