package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlGuardTest {

  private static final Set<String> PACKET = Set.of("orders", "customers", "hr.employees");

  @Test
  void aPlainSelectPassesAndIsCappedByWrapping() {
    SqlGuard.Verdict v = SqlGuard.check("SELECT o.total FROM public.orders o JOIN customers c ON c.customer_id = o.customer_id;", PACKET, 50);
    assertThat(v.allowed()).isTrue();
    assertThat(v.tables()).containsExactly("orders", "customers");
    assertThat(v.sql()).startsWith("SELECT * FROM (\nSELECT o.total").endsWith(") AS _q LIMIT 50").doesNotContain(";");
  }

  @Test
  void aUnionIsCappedAsAWholeNotInItsLastBranch() {
    SqlGuard.Verdict v = SqlGuard.check("SELECT name FROM customers UNION ALL SELECT name FROM customers LIMIT 1000", PACKET, 10);
    assertThat(v.allowed()).isTrue();
    assertThat(v.sql()).endsWith(") AS _q LIMIT 10");
  }

  @Test
  void cteNamesAreNotTablesAndReadOnlyCtesPass() {
    SqlGuard.Verdict v = SqlGuard.check("WITH t AS (SELECT * FROM orders) SELECT count(*) FROM t", PACKET, 10);
    assertThat(v.allowed()).as(v.reason()).isTrue();
    assertThat(v.tables()).containsExactly("orders");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', textBlock = """
      DELETE FROM orders                                                         | only SELECT
      SELECT 1; DROP TABLE orders                                                | exactly one statement
      WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d                 | data-modifying CTE
      SELECT * INTO stolen FROM orders                                           | SELECT INTO
      SELECT * FROM orders FOR UPDATE                                            | FOR UPDATE
      SELECT pg_sleep(10)                                                        | pg_sleep
      SELECT * FROM orders WHERE total > (SELECT nextval('seq'))                 | nextval
      SELECT lo_import('/etc/passwd')                                            | lo_import
      SELECT * FROM salaries                                                     | not in the context packet
      SELECT * FROM pg_catalog.pg_authid                                         | not in the context packet
      SELECT set_config('default_transaction_read_only', 'off', false)           | set_config
      ''                                                                         | no SQL
      """)
  void blocksWithTheReason(String sql, String reason) {
    SqlGuard.Verdict v = SqlGuard.check(sql, PACKET, 10);
    assertThat(v.allowed()).isFalse();
    assertThat(v.reason()).contains(reason);
  }

  @Test
  void onlyAParseFailureIsMarkedRepairable() {
    assertThat(SqlGuard.check("SELEC name FROM customers", PACKET, 10).unparseable()).isTrue();
    assertThat(SqlGuard.check("DELETE FROM customers", PACKET, 10).unparseable()).isFalse();
    assertThat(SqlGuard.check("SELECT * FROM salaries", PACKET, 10).unparseable()).isFalse();
  }

  @Test
  void noStatementOfTheAdversarialCorpusPasses() throws IOException {
    List<String> corpus = corpus();
    assertThat(corpus).hasSizeGreaterThanOrEqualTo(100);
    List<String> passed = new ArrayList<>();
    for (String sql : corpus) {
      if (SqlGuard.check(sql, PACKET, 10).allowed()) {
        passed.add(sql);
      }
    }
    assertThat(passed).as("statements the guard let through").isEmpty();
  }

  /** One statement per block, blocks separated by a line holding only "----". */
  static List<String> corpus() throws IOException {
    try (InputStream in = SqlGuardTest.class.getResourceAsStream("/sql/adversarial.sql")) {
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      List<String> out = new ArrayList<>();
      for (String block : all.split("(?m)^----\\s*$")) {
        if (!block.isBlank()) {
          out.add(block.strip());
        }
      }
      return out;
    }
  }
}
