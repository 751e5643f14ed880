package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.infra.LocalInfraException;
import dev.schemarag.infra.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DatabasesTest {

  @Test
  void aLocalClusterAnotherRunHoldsIsRefusedBeforeItIsStarted() throws Exception {
    String name = "databases-test-" + UUID.randomUUID().toString().substring(0, 8);
    Path claimFile = Path.of(System.getProperty("java.io.tmpdir"), "schemarag-pg-" + name + ".lock");
    try (LocalPostgres.Claim held = new LocalPostgres(name).claim()) {
      assertThat(held).isNotNull();
      assertThatThrownBy(() -> Databases.resolve(SchemaragConfig.defaults(), name)).isInstanceOf(LocalInfraException.class)
          .hasMessageContaining("'" + name + "' is in use by another schemarag run");
    } finally {
      Files.deleteIfExists(claimFile);
    }
  }

  @Test
  void aConfiguredDatabaseNeedsNoClaim() {
    SchemaragConfig config = SchemaragConfig.defaults().with(Map.of("db.url", "jdbc:postgresql://localhost:5999/app"));
    try (Databases db = Databases.resolve(config, "unused")) {
      assertThat(db.url()).isEqualTo("jdbc:postgresql://localhost:5999/app");
      assertThat(db.local()).isEmpty();
      assertThat(db.claim()).isEmpty();
    }
  }
}
