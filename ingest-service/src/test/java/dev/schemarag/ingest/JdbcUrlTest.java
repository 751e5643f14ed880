package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JdbcUrlTest {

  @Test
  void readsHostPortDatabaseAndParameters() {
    JdbcUrl u = JdbcUrl.parse("jdbc:postgresql://127.0.0.1:54330/postgres?user=postgres&password=p%40ss");
    assertThat(u.host()).isEqualTo("127.0.0.1");
    assertThat(u.port()).isEqualTo(54330);
    assertThat(u.database()).isEqualTo("postgres");
    assertThat(u.parameterOr("user", "x")).isEqualTo("postgres");
    assertThat(u.parameterOr("password", "x")).isEqualTo("p@ss");
  }

  @Test
  void defaultsThePortAndFallsBackForMissingParameters() {
    JdbcUrl u = JdbcUrl.parse("jdbc:postgresql://db.internal/erp");
    assertThat(u.port()).isEqualTo(5432);
    assertThat(u.parameterOr("user", "schemarag")).isEqualTo("schemarag");
  }

  @Test
  void aMalformedUrlIsNamed() {
    assertThatThrownBy(() -> JdbcUrl.parse("postgres://x/y")).hasMessageContaining("postgres://x/y")
        .hasMessageContaining("jdbc:postgresql://");
  }
}
