package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.access.ViewRedactor;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgPrivileges;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * Questions run under a principal's role (SET ROLE inside the read-only transaction) on the real
 * PostgreSQL: its grants, column privileges and row-level security decide, and database messages
 * come back without the names it may not read.
 */
@Tag("integration")
class RoleExecutionIT {

  private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  private static final String READER = "re_reader_" + RUN;
  private static final String CLERK = "re_clerk_" + RUN;
  private static final String SCHEMA = "re_" + RUN;
  private static ConnectionSource admin;
  private static ConnectionSource reader;

  @BeforeAll
  static void setUp() throws Exception {
    String url = TestInfra.postgresUrl();
    admin = ConnectionSource.of(url, null, null);
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + SCHEMA);
      s.execute("CREATE TABLE " + SCHEMA + ".employees (employee_id int PRIMARY KEY, full_name text, region text, salary numeric)");
      s.execute("INSERT INTO " + SCHEMA + ".employees VALUES (1, 'Ann', 'EU', 100), (2, 'Bob', 'EU', 200), (3, 'Cy', 'NA', 300)");
      s.execute("CREATE TABLE " + SCHEMA + ".salaries (employee_id int, amount numeric)");
      s.execute("CREATE ROLE " + CLERK + " NOLOGIN");
      s.execute("GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + CLERK);
      s.execute("GRANT SELECT (employee_id, full_name, region) ON " + SCHEMA + ".employees TO " + CLERK);
      s.execute("ALTER TABLE " + SCHEMA + ".employees ENABLE ROW LEVEL SECURITY");
      s.execute("CREATE POLICY everyone ON " + SCHEMA + ".employees FOR SELECT USING (true)");
      s.execute("CREATE POLICY clerk_eu ON " + SCHEMA + ".employees AS RESTRICTIVE FOR SELECT TO " + CLERK + " USING (region = 'EU')");
      // A policy that reads another table: the database's rule, planned into every query of teams.
      s.execute("CREATE TABLE " + SCHEMA + ".regions (region text PRIMARY KEY, open boolean)");
      s.execute("INSERT INTO " + SCHEMA + ".regions VALUES ('EU', true), ('NA', false)");
      s.execute("CREATE TABLE " + SCHEMA + ".teams (team_id int PRIMARY KEY, region text)");
      s.execute("INSERT INTO " + SCHEMA + ".teams VALUES (1, 'EU'), (2, 'EU'), (3, 'NA')");
      s.execute("GRANT SELECT ON " + SCHEMA + ".teams, " + SCHEMA + ".regions TO " + CLERK);
      s.execute("ALTER TABLE " + SCHEMA + ".teams ENABLE ROW LEVEL SECURITY");
      s.execute("CREATE POLICY open_regions ON " + SCHEMA + ".teams FOR SELECT TO " + CLERK
          + " USING (region IN (SELECT region FROM " + SCHEMA + ".regions WHERE open))");
    }
    ReadOnlyRole.ensure(admin, READER, "it-secret", List.of(SCHEMA));
    ReadOnlyRole.allowSetRole(admin, READER, List.of(CLERK));
    reader = ConnectionSource.asRole(url, READER, "it-secret");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
      s.execute("DROP OWNED BY " + CLERK);
      s.execute("DROP ROLE " + CLERK);
      s.execute("DROP OWNED BY " + READER);
      s.execute("DROP ROLE " + READER);
    }
  }

  private static List<String> packet() {
    return List.of(SCHEMA + ".employees");
  }

  private static SchemaView clerkView() throws SQLException {
    return PgPrivileges.view(admin, CLERK, List.of(SCHEMA));
  }

  @Test
  void theCatalogSaysWhichTablesAndColumnsARoleReads() throws SQLException {
    SchemaView v = clerkView();
    assertThat(v.columns()).containsOnlyKeys(SCHEMA + ".employees", SCHEMA + ".teams", SCHEMA + ".regions");
    assertThat(v.columns().get(SCHEMA + ".employees")).containsExactlyInAnyOrder("employee_id", "full_name", "region");
    assertThat(PgPrivileges.roleProblems(admin, READER, CLERK)).isEmpty();
    assertThat(PgPrivileges.roleProblems(admin, READER, "postgres")).singleElement().asString().contains("superuser");
    assertThat(PgPrivileges.roleProblems(admin, READER, "no_such_role_" + RUN)).singleElement().asString().contains("does not exist");
  }

  @Test
  void rowLevelSecurityDecidesTheRowsOfTheRole() throws SQLException {
    String sql = SqlGuard.capped("SELECT count(*) AS n FROM " + SCHEMA + ".employees", 10);
    ReadOnlyExecutor all = new ReadOnlyExecutor(reader, 5000);
    assertThat(all.run(sql, packet(), 10, 1).rows().orElseThrow().preview()).containsExactly(List.of("3"));
    ReadOnlyExecutor clerk = all.as(CLERK, new ViewRedactor(new PgCatalogReader(admin).read("re", List.of(SCHEMA)), clerkView())::redact);
    assertThat(clerk.run(sql, packet(), 10, 1).rows().orElseThrow().preview()).as("the EU rows only").containsExactly(List.of("2"));
    // The pooled session is back to the reader itself afterwards.
    assertThat(all.run(sql, packet(), 10, 1).rows().orElseThrow().preview()).containsExactly(List.of("3"));
  }

  @Test
  void aHiddenColumnIsRefusedByTheDatabaseAndItsNameNeverShown() throws SQLException {
    ReadOnlyExecutor clerk = new ReadOnlyExecutor(reader, 5000)
        .as(CLERK, new ViewRedactor(new PgCatalogReader(admin).read("re", List.of(SCHEMA)), clerkView())::redact);
    ReadOnlyExecutor.Outcome denied = clerk.run("SELECT sum(salary) FROM " + SCHEMA + ".employees", packet(), 10, 1);
    assertThat(denied.error()).contains(ErrorClass.VALIDATION_BLOCK);
    assertThat(denied.sqlState()).contains("42501");

    // PostgreSQL's hint names the closest column, readable or not: "Perhaps you meant ... employees.salary".
    ReadOnlyExecutor.Outcome typo = clerk.run("SELECT salry FROM " + SCHEMA + ".employees", packet(), 10, 1);
    assertThat(typo.sqlState()).contains("42703");
    assertThat(typo.message().orElseThrow()).contains("salry").doesNotContain("salary").doesNotContain("salaries");
    ReadOnlyExecutor.Outcome unredacted = new ReadOnlyExecutor(reader, 5000).run("SELECT salry FROM " + SCHEMA + ".employees", packet(), 10, 1);
    assertThat(unredacted.message().orElseThrow()).as("the hint the redaction takes out").contains("salary");
  }

  @Test
  void aTableThatOnlyARowLevelPolicyReadsIsNotOutsideThePacket() throws SQLException {
    ReadOnlyExecutor clerk = new ReadOnlyExecutor(reader, 5000).as(CLERK, new ViewRedactor(new PgCatalogReader(admin).read("re", List.of(SCHEMA)), clerkView())::redact);
    ReadOnlyExecutor.Outcome o = clerk.run("SELECT count(*) FROM " + SCHEMA + ".teams", List.of(SCHEMA + ".teams"), 10, 1);
    assertThat(o.rows()).as(o.toString()).isPresent();
    assertThat(o.rows().orElseThrow().preview()).as("the teams of open regions").containsExactly(List.of("2"));
    // A table no policy of the packet reads is still outside it (a statement naming one is SqlGuard's to refuse first).
    ReadOnlyExecutor.Outcome other = clerk.run("SELECT count(*) FROM " + SCHEMA + ".teams t JOIN " + SCHEMA + ".employees e ON e.employee_id = t.team_id",
        List.of(SCHEMA + ".teams"), 10, 1);
    assertThat(other.rows()).isEmpty();
    assertThat(other.error()).contains(ErrorClass.VALIDATION_BLOCK);
  }

  @Test
  void aTableOutsideTheRolesGrantsIsRefused() {
    ReadOnlyExecutor clerk = new ReadOnlyExecutor(reader, 5000).as(CLERK, (m, sql) -> m);
    ReadOnlyExecutor.Outcome o = clerk.run("SELECT count(*) FROM " + SCHEMA + ".salaries", List.of(SCHEMA + ".salaries"), 10, 1);
    assertThat(o.error()).contains(ErrorClass.VALIDATION_BLOCK);
    assertThat(o.sqlState()).contains("42501");
    assertThat(Set.of(o.stage())).containsAnyOf("explain", "execute");
  }
}
