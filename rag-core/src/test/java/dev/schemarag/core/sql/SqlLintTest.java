package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlLintTest {

  private static final Map<String, Set<String>> COLUMNS = Map.of(
      "orders", Set.of("order_id", "customer_id", "total", "created_at"),
      "customers", Set.of("customer_id", "name", "created_at"));

  private static List<String> codes(String sql) {
    return SqlLint.lint(sql, COLUMNS).stream().map(SqlLint.Issue::code).toList();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      unbalanced_parens         | SELECT count(* FROM orders                                              | SELECT count(*) FROM orders
      unbalanced_parens         | SELECT total) FROM orders                                               | SELECT (total) FROM orders
      unclosed_quote            | SELECT * FROM customers WHERE name = 'O''Brien                          | SELECT * FROM customers WHERE name = 'O''Brien'
      trailing_comma_select     | SELECT order_id, total, FROM orders                                     | SELECT order_id, total FROM orders
      trailing_comma_groupby    | SELECT customer_id, count(*) FROM orders GROUP BY customer_id, ORDER BY 2 | SELECT customer_id, count(*) FROM orders GROUP BY customer_id ORDER BY 2
      trailing_comma_orderby    | SELECT order_id FROM orders ORDER BY total, LIMIT 5                     | SELECT order_id FROM orders ORDER BY total LIMIT 5
      join_without_condition    | SELECT o.total FROM orders o JOIN customers c                           | SELECT o.total FROM orders o JOIN customers c ON c.customer_id = o.customer_id
      undefined_alias           | SELECT x.total FROM orders o                                            | SELECT o.total FROM orders o
      aggregate_without_groupby | SELECT customer_id, sum(total) FROM orders                              | SELECT customer_id, sum(total) FROM orders GROUP BY customer_id
      non_aggregate_in_select   | SELECT customer_id, total, sum(total) FROM orders GROUP BY customer_id  | SELECT customer_id, sum(total) FROM orders GROUP BY customer_id
      duplicate_alias           | SELECT order_id AS id, customer_id AS id FROM orders                    | SELECT order_id AS id, customer_id AS cid FROM orders
      ambiguous_column          | SELECT created_at FROM orders o JOIN customers c USING (customer_id)    | SELECT o.created_at FROM orders o JOIN customers c USING (customer_id)
      """)
  void eachCheckFiresOnItsMistakeAndNotOnTheFix(String code, String bad, String good) {
    assertThat(codes(bad)).contains(code);
    assertThat(codes(good)).doesNotContain(code);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      unbalanced_parens         | ERROR
      unclosed_quote            | ERROR
      trailing_comma_select     | ERROR
      join_without_condition    | ERROR
      undefined_alias           | ERROR
      aggregate_without_groupby | WARNING
      ambiguous_column          | WARNING
      """)
  void severitiesAreAsDocumented(String code, SqlLint.Severity severity) {
    String sql = switch (code) {
      case "unbalanced_parens" -> "SELECT (1";
      case "unclosed_quote" -> "SELECT 'x";
      case "trailing_comma_select" -> "SELECT 1, FROM orders";
      case "join_without_condition" -> "SELECT 1 FROM orders o JOIN customers c";
      case "undefined_alias" -> "SELECT z.a FROM orders";
      case "aggregate_without_groupby" -> "SELECT customer_id, count(*) FROM orders";
      default -> "SELECT created_at FROM orders, customers";
    };
    assertThat(SqlLint.lint(sql, COLUMNS)).filteredOn(i -> i.code().equals(code))
        .isNotEmpty().allSatisfy(i -> assertThat(i.severity()).isEqualTo(severity));
  }

  @org.junit.jupiter.api.Test
  void cleanSqlHasNoIssuesAndLiteralsOrCommentsDoNotTrigger() {
    assertThat(codes("""
        WITH big AS (SELECT customer_id, sum(total) AS spent FROM orders GROUP BY customer_id)
        SELECT c.name, b.spent FROM customers c JOIN big b ON b.customer_id = c.customer_id
        WHERE c.name <> 'a, FROM (' -- a comment with ) and ,
        ORDER BY b.spent DESC LIMIT 10
        """)).isEmpty();
    assertThat(SqlLint.hasErrors(SqlLint.lint("SELECT 1,", Map.of()))).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      CALL refresh_everything()
      SET statement_timeout = 0
      COPY orders TO STDOUT
      """)
  void statementsTheParserCannotWalkGiveNoFindingAndDoNotThrow(String sql) {
    assertThat(codes(sql)).isEmpty();
  }
}
