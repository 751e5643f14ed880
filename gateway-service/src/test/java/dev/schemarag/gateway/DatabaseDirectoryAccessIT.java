package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** describe_table and list_databases under the access policy, against the real catalog and grants. */
@Tag("integration")
class DatabaseDirectoryAccessIT {

  private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  private static final String SCHEMA = "dd_" + RUN;
  private static final String ROLE = "dd_" + RUN + "_clerk";
  private static ConnectionSource admin;
  private static DatabaseDirectory directory;

  @BeforeAll
  static void setUp() throws SQLException {
    admin = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    sql("CREATE SCHEMA " + SCHEMA, "CREATE TABLE " + SCHEMA + ".employees (employee_id int PRIMARY KEY, full_name text, salary numeric)",
        "CREATE TABLE " + SCHEMA + ".salaries (employee_id int REFERENCES " + SCHEMA + ".employees, amount numeric)",
        "CREATE ROLE " + ROLE + " NOLOGIN", "GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + ROLE,
        "GRANT SELECT (employee_id, full_name) ON " + SCHEMA + ".employees TO " + ROLE);
    AccessPolicy policy = new AccessPolicy(Map.of("clerk", ROLE), Map.of(), Optional.empty());
    directory = new DatabaseDirectory("dd", List.of(SCHEMA), Optional.of(admin), policy);
  }

  @AfterAll
  static void tearDown() throws SQLException {
    sql("DROP SCHEMA " + SCHEMA + " CASCADE", "DROP OWNED BY " + ROLE, "DROP ROLE " + ROLE);
  }

  private static void sql(String... statements) throws SQLException {
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void aPrincipalIsDescribedOnlyWhatItsRoleReads() {
    Map<String, Object> d = directory.describe(Optional.empty(), SCHEMA + ".employees", "clerk");
    assertThat((List<Map<String, Object>>) d.get("columns")).extracting(c -> c.get("name")).containsExactly("employee_id", "full_name");
    assertThat((List<?>) d.get("referenced_by")).as("the hidden table's key is not shown").isEmpty();
    assertThat(directory.list("clerk")).singleElement().satisfies(db -> assertThat(db.get("tables")).isEqualTo(1));
  }

  @Test
  void aHiddenTableIsAnsweredExactlyAsOneThatDoesNotExist() {
    Problem hidden = catchThrowableOfType(() -> directory.describe(Optional.empty(), SCHEMA + ".salaries", "clerk"),
        Problem.Raised.class).problem();
    Problem missing = catchThrowableOfType(() -> directory.describe(Optional.empty(), SCHEMA + ".wages", "clerk"),
        Problem.Raised.class).problem();
    assertThat(hidden.status()).isEqualTo(404).isEqualTo(missing.status());
    assertThat(hidden.detail().replace("salaries", "wages")).isEqualTo(missing.detail());
  }

  @Test
  void anUnknownPrincipalIsForbidden() {
    Problem p = catchThrowableOfType(() -> directory.describe(Optional.empty(), SCHEMA + ".employees", "mallory"),
        Problem.Raised.class).problem();
    assertThat(p.status()).isEqualTo(403);
    assertThat(p.detail()).contains("unknown principal 'mallory'");
  }
}
