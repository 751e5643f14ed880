package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Execution as the read-only role against the real PostgreSQL, guard bypassed on purpose. */
@Tag("integration")
class ReadOnlyExecutionIT {

  private static final String ROLE = "schemarag_reader_it";
  private static String schema;
  private static ConnectionSource admin;
  private static ConnectionSource reader;

  @BeforeAll
  static void setUp() throws Exception {
    String url = TestInfra.postgresUrl();
    admin = ConnectionSource.of(url, null, null);
    schema = "ro_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      s.execute("CREATE TABLE " + schema + ".orders (order_id int PRIMARY KEY, total numeric)");
      s.execute("INSERT INTO " + schema + ".orders SELECT g, g * 10 FROM generate_series(1, 30) g");
    }
    ReadOnlyRole.ensure(admin, ROLE, "it-secret", List.of(schema));
    reader = ConnectionSource.asRole(url, ROLE, "it-secret");
  }

  private static List<String> packet() {
    return List.of(schema + ".orders");
  }

  private ReadOnlyExecutor executor(int timeoutMs) {
    return new ReadOnlyExecutor(reader, timeoutMs);
  }

  @Test
  void theRoleIsFitToRunGeneratedSql() throws SQLException {
    assertThat(ReadOnlyRole.problems(admin, ROLE)).isEmpty();
    ReadOnlyRole.ensure(admin, ROLE, "it-secret", List.of(schema)); // idempotent
    assertThat(ReadOnlyRole.problems(admin, "postgres")).anySatisfy(p -> assertThat(p).contains("superuser"));
  }

  @Test
  void aGuardedSelectRunsWithItsPlanAndRows() {
    ReadOnlyExecutor.Outcome o = executor(5000).run(SqlGuard.capped("SELECT order_id, total FROM " + schema + ".orders ORDER BY 1", 25), packet(), 25, 3);
    assertThat(o.ok()).isTrue();
    assertThat(o.plan()).get().asString().isNotBlank();
    assertThat(o.rows().orElseThrow().columns()).containsExactly("order_id", "total");
    assertThat(o.rows().orElseThrow().rowCount()).isEqualTo(25);
    assertThat(o.rows().orElseThrow().preview()).hasSize(3).first().isEqualTo(List.of("1", "10"));
  }

  @Test
  void writesFailEvenWhenTheGuardIsBypassed() throws SQLException {
    for (String write : List.of("DELETE FROM " + schema + ".orders", "UPDATE " + schema + ".orders SET total = 0",
        "INSERT INTO " + schema + ".orders VALUES (99, 1)")) {
      ReadOnlyExecutor.Outcome o = executor(5000).run(write, packet(), 10, 1);
      assertThat(o.ok()).as(write).isFalse();
      assertThat(o.error()).as(write).contains(ErrorClass.VALIDATION_BLOCK);
      // the missing privilege (42501) is checked before the read-only transaction (25006) could refuse
      assertThat(o.sqlState().orElseThrow()).as(write).isIn("42501", "25006");
    }
    // DDL cannot even be EXPLAINed; it fails before it could run.
    for (String ddl : List.of("CREATE TABLE " + schema + ".x (a int)", "DROP TABLE " + schema + ".orders")) {
      assertThat(executor(5000).run(ddl, packet(), 10, 1).ok()).as(ddl).isFalse();
    }
    // Outside any read-only transaction the role itself still may not write.
    try (Connection c = reader.open(); Statement s = c.createStatement()) {
      s.execute("SET default_transaction_read_only = off");
      assertThatThrownBy(() -> s.execute("DELETE FROM " + schema + ".orders"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"));
    }
    try (Connection c = admin.open(); Statement s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM " + schema + ".orders")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(30);
    }
    try (Connection c = admin.open(); Statement s = c.createStatement();
         var rs = s.executeQuery("SELECT to_regclass('" + schema + ".x') IS NULL")) {
      rs.next();
      assertThat(rs.getBoolean(1)).isTrue();
    }
  }

  @Test
  void failuresAreClassifiedBySqlState() {
    ReadOnlyExecutor.Outcome timeout = executor(200).run("SELECT count(*) FROM generate_series(1, 2000000000) g", packet(), 1, 1);
    assertThat(timeout.error()).contains(ErrorClass.QUERY_TIMEOUT);
    assertThat(timeout.sqlState()).contains("57014");
    assertThat(timeout.stage()).isEqualTo("execute");

    ReadOnlyExecutor.Outcome missing = executor(5000).run("SELECT nope FROM " + schema + ".orders", packet(), 1, 1);
    assertThat(missing.error()).contains(ErrorClass.SQL_ERROR);
    assertThat(missing.sqlState()).contains("42703");
    assertThat(missing.stage()).isEqualTo("explain");
  }

  @Test
  void aHugeValueIsCutToTheValueCapAndTheAnswerSaysTruncated() {
    ReadOnlyExecutor.Outcome o = executor(5000).run("SELECT repeat('x', 3000000) AS big", packet(), 10, 20);
    assertThat(o.ok()).as(o.message().orElse("")).isTrue();
    ReadOnlyExecutor.Rows rows = o.rows().orElseThrow();
    assertThat(rows.rowCount()).isEqualTo(1);
    assertThat(rows.truncated()).isTrue();
    String value = rows.preview().get(0).get(0);
    assertThat(RowBudget.utf8Length(value)).isLessThanOrEqualTo(RowBudget.Limits.DEFAULT.maxValueBytes());
    assertThat(value).endsWith("…[3000000 bytes, cut]");
  }

  @Test
  void wideRowsAreStreamedWithinTheByteBudgetAndCountedInFull() {
    RowBudget.Limits limits = new RowBudget.Limits(100_000, 8_192);
    ReadOnlyExecutor.Outcome o = new ReadOnlyExecutor(reader, 10_000, limits)
        .run("SELECT g, repeat('y', 5000) AS wide FROM generate_series(1, 20000) g", packet(), 20_000, 20_000);
    assertThat(o.ok()).as(o.message().orElse("")).isTrue();
    ReadOnlyExecutor.Rows rows = o.rows().orElseThrow();
    assertThat(rows.rowCount()).as("every row counted, up to the row cap").isEqualTo(20_000);
    assertThat(rows.truncated()).isTrue();
    assertThat(rows.preview()).hasSize(100_000 / (5_000 + 4 + 1 + 4 + 4)); // five-digit g is at most 5 bytes: 19 rows
    assertThat(rows.preview().get(0).get(0)).isEqualTo("1");
    long bytes = rows.preview().stream().flatMap(List::stream).mapToLong(v -> RowBudget.utf8Length(v) + 4).sum();
    assertThat(bytes).isLessThanOrEqualTo(100_000);
  }

  @Test
  void aStreamedReadIsBoundedByTheStatementTimeoutAsAWhole() {
    // Every fetch is quick, so PostgreSQL's statement_timeout (per fetch when streaming) never fires: the read's own deadline does.
    long t0 = System.nanoTime();
    String t = schema + ".orders";
    ReadOnlyExecutor.Outcome o = executor(500).run("SELECT a.order_id, b.order_id, c.order_id, d.order_id, e.order_id FROM " + t + " a, "
        + t + " b, " + t + " c, " + t + " d, " + t + " e", packet(), 2_000_000_000, 20); // 30^5 rows, produced as they are fetched
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(o.error()).contains(ErrorClass.QUERY_TIMEOUT);
    // A fetch the machine stalls past 500 ms is cancelled by PostgreSQL's own timeout first (seen once in CI):
    // bounded either way, and a read the deadline did not bound would run far past the 5 s below.
    assertThat(o.message()).get().asString().satisfiesAnyOf(
        m -> assertThat(m).contains("reading the rows took longer than the statement timeout of 500 ms"),
        m -> assertThat(m).contains("canceling statement due to statement timeout"));
    assertThat(ms).isLessThan(5_000);
  }

  @Test
  void aSessionKilledUnderItsQueryIsAnInfraFailureNotATimeout() throws Exception {
    String t = schema + ".orders";
    var running = java.util.concurrent.CompletableFuture.supplyAsync(() -> executor(60_000).run(
        "SELECT count(*) FROM " + t + " a, " + t + " b, " + t + " c, " + t + " d, " + t + " e, " + t + " f", packet(), 1, 1));
    // the executor's backend, once its count is running: terminated as pg_terminate_backend (an administrator) would
    int killed = 0;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (killed == 0 && !running.isDone() && System.nanoTime() < deadline) {
      try (Connection c = admin.open(); Statement s = c.createStatement(); var rs = s.executeQuery(
          "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '" + ROLE + "' AND state = 'active'"
              + " AND query LIKE 'SELECT count(*) FROM %'")) {
        rs.next();
        killed = rs.getInt(1);
      }
    }
    ReadOnlyExecutor.Outcome o = running.get();
    assertThat(killed).as("the query was running to be killed").isEqualTo(1);
    assertThat(o.sqlState()).contains("57P01");
    assertThat(o.error()).contains(ErrorClass.INFRA_FAILURE);
  }
}
