package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PooledConnections;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every payload of the adversarial corpus through the guard and the executor against the real
 * PostgreSQL, in a database of its own (so the corpus's unqualified names resolve): sales tables in
 * public, and an hr schema whose salaries the packet never holds but the role may read, so what
 * stops a payload is the guard, the plan check and the session reset, not a missing grant. A
 * checksum of every table's rows, the relation list and the sequences is the same before and after.
 */
@Tag("integration")
class GuardedPayloadsIT {

  private static final String ROLE = "schemarag_guard_it";
  /** The statement timeout of these runs; the service's default is answer.statement.timeout.ms = 10000. */
  private static final int TIMEOUT_MS = 1000;
  private static final List<String> PACKET = List.of("orders", "customers", "hr.employees");

  private static String database;
  private static ConnectionSource server;
  private static ConnectionSource admin;
  private static PooledConnections reader;

  @BeforeAll
  static void setUp() throws Exception {
    String url = TestInfra.postgresUrl();
    server = ConnectionSource.of(url, null, null);
    database = "guard_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    try (Connection c = server.open(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + database);
    }
    String dbUrl = url.replaceFirst("(//[^/]+/)[^?]*", "$1" + database);
    admin = ConnectionSource.of(dbUrl, null, null);
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (customer_id int PRIMARY KEY, name text, country text)");
      s.execute("CREATE TABLE orders (order_id serial PRIMARY KEY, customer_id int REFERENCES customers, total numeric)");
      s.execute("INSERT INTO customers VALUES (1, 'Acme', 'DE'), (2, 'Globex', 'US')");
      s.execute("INSERT INTO orders (customer_id, total) VALUES (1, 100), (1, 50), (2, 70)");
      s.execute("CREATE SCHEMA hr");
      s.execute("CREATE TABLE hr.employees (employee_id int PRIMARY KEY, name text)");
      s.execute("CREATE TABLE hr.salaries (employee_id int REFERENCES hr.employees, amount numeric)");
      s.execute("CREATE SEQUENCE hr.salary_seq");
      s.execute("INSERT INTO hr.employees VALUES (1, 'Ann'), (2, 'Bob')");
      s.execute("INSERT INTO hr.salaries VALUES (1, 91000), (2, 87000)");
      s.execute("CREATE VIEW big_orders AS SELECT o.order_id, c.name, o.total FROM orders o JOIN customers c USING (customer_id)"
          + " WHERE o.total > 60");
    }
    ReadOnlyRole.ensure(admin, ROLE, "it-secret", List.of("public", "hr"));
    reader = PooledConnections.asRole(dbUrl, ROLE, "it-secret", 2, "guard-it");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    if (reader != null) {
      reader.close();
    }
    try (Connection c = server.open(); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }
  }

  @Test
  void noPayloadSucceedsAndNothingChanges() throws Exception {
    String before = checksum();
    ReadOnlyExecutor executor = new ReadOnlyExecutor(reader, TIMEOUT_MS);
    List<String> succeeded = new ArrayList<>();
    Map<String, Integer> stoppedBy = new TreeMap<>();
    for (String sql : SqlGuardTest.corpus()) {
      SqlGuard.Verdict v = SqlGuard.check(sql, PACKET, 100);
      if (!v.allowed()) {
        stoppedBy.merge("guard", 1, Integer::sum);
        continue;
      }
      long t0 = System.nanoTime();
      ReadOnlyExecutor.Outcome o = executor.run(v.sql(), PACKET, 100, 20);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      if (sql.contains("oversized")) {
        // Answered, but with the value cut to the cap: the answer still fits in a Kafka record.
        assertThat(o.ok()).isTrue();
        assertThat(o.rows().orElseThrow().truncated()).isTrue();
        assertThat(RowBudget.utf8Length(o.rows().orElseThrow().preview().get(0).get(0)))
            .isLessThanOrEqualTo(RowBudget.Limits.DEFAULT.maxValueBytes());
        stoppedBy.merge("execute:cut", 1, Integer::sum);
        continue;
      }
      if (o.ok()) {
        succeeded.add(sql);
        continue;
      }
      stoppedBy.merge(o.stage() + ":" + o.error().orElseThrow().label(), 1, Integer::sum);
      if (sql.contains("runaway")) {
        assertThat(o.error()).contains(ErrorClass.QUERY_TIMEOUT);
        assertThat(ms).as("the statement timeout holds").isLessThan(TIMEOUT_MS + 3000);
      }
    }
    System.out.println("adversarial payloads stopped by: " + stoppedBy);
    assertThat(succeeded).as("payloads that succeeded").isEmpty();
    assertThat(stoppedBy).containsKeys("guard", "execute:query_timeout", "execute:cut");
    assertThat(checksum()).isEqualTo(before);
    assertThat(advisoryLocks()).isZero();
  }

  @Test
  void withoutTheGuardTheRoleThePlanCheckAndTheSessionResetStillHold() throws Exception {
    String before = checksum();
    ReadOnlyExecutor executor = new ReadOnlyExecutor(reader, TIMEOUT_MS);
    List<String> readHr = new ArrayList<>();
    for (String sql : SqlGuardTest.corpus()) {
      ReadOnlyExecutor.Outcome o = executor.run(sql, PACKET, 100, 20);
      if (o.ok() && o.rows().orElseThrow().preview().toString().matches(".*\\b(91000|87000)\\b.*")) {
        readHr.add(sql);
      }
      assertThat(advisoryLocks()).as("advisory locks left after " + sql).isZero();
    }
    assertThat(readHr).as("payloads that read hr.salaries past the plan check").isEmpty();
    assertThat(checksum()).isEqualTo(before);
  }

  @Test
  void theSessionResetReleasesWhatAStatementLeftOnAPooledConnection() throws Exception {
    // Past the guard, the plan check refuses the call itself.
    ReadOnlyExecutor.Outcome locked = new ReadOnlyExecutor(reader, TIMEOUT_MS).run("SELECT pg_advisory_lock(4242)::text", PACKET, 1, 1);
    assertThat(locked.error()).contains(ErrorClass.VALIDATION_BLOCK);
    assertThat(locked.stage()).isEqualTo("plan");
    // Should anything still get through: a session-level lock outlives a rollback, and only the reset releases it.
    try (Connection c = reader.open()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_lock(4242)");
        s.execute("SET work_mem = '1MB'");
      }
      assertThat(advisoryLocks()).isOne();
      ReadOnlyExecutor.reset(c);
      assertThat(advisoryLocks()).isZero();
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW work_mem")) {
        rs.next();
        assertThat(rs.getString(1)).isNotEqualTo("1MB");
      }
    }
  }

  @Test
  void aPacketViewMayReadItsOwnTablesButNothingElse() {
    ReadOnlyExecutor executor = new ReadOnlyExecutor(reader, TIMEOUT_MS);
    List<String> viewOnly = List.of("big_orders");
    SqlGuard.Verdict v = SqlGuard.check("SELECT name, total FROM big_orders ORDER BY total", viewOnly, 10);
    ReadOnlyExecutor.Outcome o = executor.run(v.sql(), viewOnly, 10, 10);
    assertThat(o.ok()).as(o.message().orElse("")).isTrue();
    assertThat(o.rows().orElseThrow().preview()).containsExactly(List.of("Globex", "70"), List.of("Acme", "100"));
    ReadOnlyExecutor.Outcome sneaky = executor.run("SELECT b.name FROM big_orders b WHERE b.total < (SELECT max(amount) FROM hr.salaries)",
        viewOnly, 10, 10);
    assertThat(sneaky.error()).contains(ErrorClass.VALIDATION_BLOCK);
    assertThat(sneaky.stage()).isEqualTo("plan");
    assertThat(sneaky.message()).get().asString().contains("hr.salaries");
  }

  private static long advisoryLocks() throws SQLException {
    try (Connection c = admin.open(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** md5 of every table's rows in order, the relations of every schema, the sequences' positions and the role's attributes. */
  private static String checksum() throws SQLException {
    StringBuilder sb = new StringBuilder();
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text, ',' ORDER BY 1)"
          + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
          + " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'"
          + " AND n.nspname NOT LIKE 'pg_temp%'")) {
        rs.next();
        sb.append("relations=").append(rs.getString(1)).append('\n');
      }
      try (ResultSet rs = s.executeQuery("SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables"
          + " WHERE schemaname IN ('public', 'hr') ORDER BY 1")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      for (String t : tables) {
        try (ResultSet rs = s.executeQuery("SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM " + t + " t")) {
          rs.next();
          sb.append(t).append('=').append(rs.getString(1)).append('\n');
        }
      }
      for (String seq : List.of("public.orders_order_id_seq", "hr.salary_seq")) {
        try (ResultSet rs = s.executeQuery("SELECT last_value || '/' || is_called FROM " + seq)) {
          rs.next();
          sb.append(seq).append('=').append(rs.getString(1)).append('\n');
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT rolsuper || ',' || rolcreaterole || ',' || rolcreatedb || ',' || coalesce(array_to_string(rolconfig, ';'), '')"
          + " FROM pg_roles WHERE rolname = '" + ROLE + "'")) {
        rs.next();
        sb.append("role=").append(rs.getString(1)).append('\n');
      }
    }
    return sb.toString();
  }
}
