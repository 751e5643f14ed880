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
    assertThat(v.sql()).startsWith("SELECT * FROM (\nSELECT o.\"total\" FROM public.\"orders\" o").endsWith(") AS _q LIMIT 50").doesNotContain(";");
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

  @Test
  void tablesReadNameEveryTableOfAnAllowedStatementWhateverThePacket() {
    assertThat(SqlGuard.tablesRead("WITH t AS (SELECT * FROM sales.orders) SELECT c.name, count(*) FROM t JOIN \"Sales\".customers c"
        + " ON c.id = t.customer_id WHERE t.id IN (SELECT order_id FROM public.order_lines) GROUP BY 1"))
        .containsExactlyInAnyOrder("sales.orders", "Sales.customers", "order_lines");
    assertThat(SqlGuard.tablesRead("DELETE FROM orders")).isEmpty();
    assertThat(SqlGuard.tablesRead("SELECT * FROM pg_catalog.pg_class")).isEmpty();
    assertThat(SqlGuard.tablesRead("not sql at all")).isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      DELETE FROM orders                                                         | only SELECT
      SELECT 1; DROP TABLE orders                                                | exactly one statement
      WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d                 | data-modifying CTE
      SELECT * INTO stolen FROM orders                                           | SELECT INTO
      SELECT * FROM orders FOR UPDATE                                            | FOR UPDATE
      SELECT pg_sleep(10)                                                        | function pg_sleep is not on the allowlist
      SELECT * FROM orders WHERE total > (SELECT nextval('seq'))                 | function nextval
      SELECT lo_import('/etc/passwd')                                            | lo_import
      SELECT * FROM salaries                                                     | not in the context packet
      SELECT * FROM pg_catalog.pg_authid                                         | catalog table
      SELECT * FROM pg_settings                                                  | catalog table
      SELECT set_config('default_transaction_read_only', 'off', false)           | set_config
      ~~                                                                         | no SQL
      SET statement_timeout = 0                                                  | found SET
      COPY orders TO PROGRAM 'curl evil'                                         | found COPY
      DO $$ BEGIN DELETE FROM orders; END $$                                     | found DO
      CALL cleanup()                                                             | found CALL
      EXPLAIN ANALYZE DELETE FROM orders                                         | found EXPLAIN
      SELEC name FROM customers                                                  | found SELEC
      SELECT name FROM customers WHERE (                                         | not parseable SQL
      SELECT U&"pg\\005fsleep"(60)                                                | function pg_sleep is not on the allowlist
      SELECT U&"pg!005fsleep" UESCAPE '!' (60)                                   | function pg_sleep is not on the allowlist
      SELECT pg_catalog.pg_sleep(1)                                              | function pg_catalog.pg_sleep
      SELECT "pg_catalog"."PG_SLEEP"(1)                                          | function pg_catalog.PG_SLEEP
      SELECT PG_SLEEP(1)                                                         | function pg_sleep
      SELECT public.lower(name) FROM customers                                   | lies outside pg_catalog
      SELECT 1 /* nested /* comment */ still a comment */ , pg_sleep(1)          | function pg_sleep
      SELECT concat($$x$$, pg_sleep(1)::text)                                    | function pg_sleep
      SELECT concat(E'\\'', pg_sleep(1)::text)                                  | E'…' escape strings
      SELECT string_agg(name, ',' ORDER BY (SELECT max(amount) FROM hr.salaries)) FROM customers | hr.salaries is not in the context packet
      SELECT count(*) FILTER (WHERE 1 IN (SELECT 1 FROM hr.salaries)) FROM orders | hr.salaries is not in the context packet
      SELECT * FROM xmltable('/r' PASSING (SELECT 1 FROM hr.salaries) COLUMNS a text) | hr.salaries
      SELECT lower(concat(name, (SELECT max(amount) FROM hr.salaries))) FROM customers | hr.salaries is not in the context packet
      SELECT CASE WHEN (SELECT 1 FROM hr.salaries) = 1 THEN 1 END               | hr.salaries is not in the context packet
      SELECT * FROM xmltable('/r' PASSING (SELECT 1 FROM orders) COLUMNS a text) | function xmltable
      SELECT * FROM orders o, LATERAL (SELECT * FROM hr.salaries) l              | hr.salaries is not in the context packet
      SELECT rank() OVER w FROM orders WINDOW w AS (ORDER BY (SELECT 1 FROM hr.salaries)) | hr.salaries
      SELECT ts_stat('SELECT to_tsvector(name) FROM hr.salaries')                | function ts_stat
      SELECT ts_rewrite('a'::tsquery, 'SELECT 1')                                | function ts_rewrite
      SELECT query_to_xml('SELECT * FROM hr.salaries', true, true, '')           | function query_to_xml
      SELECT schema_to_xml_and_xmlschema('hr', true, true, '')                   | function schema_to_xml_and_xmlschema
      SELECT * FROM pg_stat_get_activity(NULL)                                   | function pg_stat_get_activity
      SELECT pg_advisory_lock(1)                                                 | function pg_advisory_lock
      SELECT pg_terminate_backend(1)                                             | function pg_terminate_backend
      SELECT current_setting('data_directory')                                   | function current_setting
      SELECT '\\', pg_sleep(10) --'                                               | function pg_sleep
      SELECT * FROM other_db.public.orders                                       | another database
      """)
  void blocksWithTheReason(String sql, String reason) {
    SqlGuard.Verdict v = SqlGuard.check(sql, PACKET, 10);
    assertThat(v.allowed()).as(sql).isFalse();
    assertThat(v.reason()).contains(reason);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      SELECT lower(c.name), coalesce(sum(o.total), 0) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY 1
      SELECT pg_catalog.upper(name) FROM customers
      SELECT U&"\\0063ustomers".name FROM U&"\\0063ustomers"
      SELECT string_agg(name, ', ' ORDER BY name) FROM customers WHERE name LIKE '%\\_%'
      SELECT date_trunc('month', now()) AS m, count(*) FILTER (WHERE total > 10) FROM orders GROUP BY 1
      SELECT row_number() OVER (PARTITION BY customer_id ORDER BY total DESC), total FROM orders
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total) FROM orders
      SELECT x FROM generate_series(1, 3) AS g(x)
      SELECT e.name FROM hr.employees e WHERE e.id IN (SELECT customer_id FROM orders)
      SELECT CAST(total AS numeric(10, 2)), total::text, $$it's$$ AS note FROM orders -- a comment
      WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r
      SELECT "Name" FROM "orders"
      """)
  void ordinaryQueriesPass(String sql) {
    SqlGuard.Verdict v = SqlGuard.check(sql, PACKET, 10);
    assertThat(v.allowed()).as(v.reason()).isTrue();
  }

  @Test
  void theCanonicalTextIsWhatRuns() {
    SqlGuard.Verdict v = SqlGuard.check("SELECT U&\"\\0063ustomers\".name, $$a'b$$ /* note */ FROM customers", PACKET, 5);
    assertThat(v.allowed()).as(v.reason()).isTrue();
    assertThat(v.sql()).contains("SELECT \"customers\".\"name\", 'a''b'").doesNotContain("U&").doesNotContain("note").doesNotContain("$$");
  }

  @Test
  void aQualifiedNameThatJsqlparserReservesIsReadAsTheName() {
    SqlGuard.Verdict v = SqlGuard.check("SELECT r.reason, R.Returns FROM sales.returns r ORDER BY r.return_id", List.of("sales.returns"), 10);
    assertThat(v.allowed()).as(v.reason()).isTrue();
    assertThat(v.tables()).containsExactly("sales.returns");
    assertThat(v.sql()).contains("FROM sales.\"returns\" r").contains("R.\"returns\"");
  }

  @Test
  void aQuotedTableIsNotTheSameAsAnotherSchemasTable() {
    assertThat(SqlGuard.check("SELECT * FROM \"hr\".\"salaries\"", PACKET, 10).reason()).contains("hr.salaries is not in the context packet");
    assertThat(SqlGuard.check("SELECT * FROM \"hr\".employees", PACKET, 10).allowed()).isTrue();
  }

  @Test
  void noStatementOfTheAdversarialCorpusPasses() throws IOException {
    List<String> corpus = corpus();
    assertThat(corpus).hasSizeGreaterThanOrEqualTo(190);
    List<String> passed = new ArrayList<>();
    for (String sql : corpus) {
      if (SqlGuard.check(sql, PACKET, 10).allowed() && !stoppedOnlyByTheExecutor(sql)) {
        passed.add(sql);
      }
    }
    assertThat(passed).as("statements the guard let through").isEmpty();
    assertThat(corpus.stream().filter(SqlGuardTest::stoppedOnlyByTheExecutor)).hasSize(2);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      SET statement_timeout = 0                         | SET
      set role postgres                                 | SET
      COPY orders TO STDOUT                             | COPY
      DO $$ BEGIN PERFORM pg_sleep(10); END $$          | DO
      CALL refresh_everything()                         | CALL
      /* hidden */ RESET ALL                            | RESET
      """)
  void aStatementThatReadsNothingIsNamedBeforeLint(String sql, String word) {
    assertThat(SqlGuard.notReading(sql)).contains("only SELECT or WITH … SELECT is allowed, found " + word);
  }

  @Test
  void readingStatementsAndUnreadableTextAreLeftToLintAndTheGuard() {
    assertThat(SqlGuard.notReading("SELECT 1")).isEmpty();
    assertThat(SqlGuard.notReading("  with x as (select 1) select * from x")).isEmpty();
    assertThat(SqlGuard.notReading("(SELECT 1) UNION (SELECT 2)")).isEmpty();
    assertThat(SqlGuard.notReading("SELECT 'unclosed")).isEmpty();
    assertThat(SqlGuard.notReading("")).isEmpty();
  }

  /** Payloads of ordinary shape (allowed tables and functions) that only the executor can stop: oversized or runaway. */
  static boolean stoppedOnlyByTheExecutor(String block) {
    return block.startsWith("-- executor:");
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
