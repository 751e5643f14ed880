package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabases;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatabaseDirectoryTest {

  private final DatabaseDirectory two = DatabaseDirectory.of(SchemaragConfig.defaults().with(Map.of(
      "sources", "erp,crm", "sources.erp.db.url", "jdbc:postgresql://h/erp", "sources.erp.catalog.schemas", "sales,hr",
      "sources.crm.db.url", "jdbc:postgresql://h/crm")));

  @Test
  void everySourceIsADatabaseAndTheFirstIsTheDefault() {
    assertThat(two.resolve(Optional.of("crm"))).isEqualTo("crm");
    assertThat(two.resolve(Optional.empty())).isEqualTo("erp");
  }

  @Test
  void anUnknownDatabaseIsA404NamingEverySource() {
    assertThatThrownBy(() -> two.resolve(Optional.of("hr")))
        .isInstanceOfSatisfying(Problem.Raised.class, r -> {
          assertThat(r.problem().status()).isEqualTo(404);
          assertThat(r.problem().detail()).contains("unknown database 'hr'").contains("'erp', 'crm'");
        });
  }

  @Test
  void listDatabasesListsEverySourceWithItsSchemas() {
    DatabaseDirectory d = new DatabaseDirectory(List.of(new DatabaseDirectory.Source("erp", List.of("sales", "hr"), Optional.empty()),
        new DatabaseDirectory.Source("crm", List.of("public"), Optional.empty())), AccessPolicy.from(SchemaragConfig.defaults()));
    assertThat(d.list(null)).containsExactly(Map.of("database_id", "erp", "schemas", List.of("sales", "hr")),
        Map.of("database_id", "crm", "schemas", List.of("public")));
  }

  @Test
  void withoutSourcesTheOneDatabaseIsDatabaseId() {
    DatabaseDirectory one = DatabaseDirectory.of(SchemaragConfig.defaults().with(Map.of("database.id", "shop")));
    assertThat(one.list(null)).extracting(d -> d.get("database_id")).containsExactly("shop");
  }

  @Test
  void sourcesAppliedAtRuntimeReplaceTheDatabases() {
    DatabaseDirectory d = DatabaseDirectory.of(SchemaragConfig.defaults().with(Map.of("sources", "erp", "sources.erp.db.url",
        "jdbc:postgresql://h/erp")));
    d.apply(SourceDatabases.of(SchemaragConfig.defaults().with(Map.of("sources", "erp,hr", "sources.erp.db.url", "jdbc:postgresql://h/erp",
        "sources.hr.db.url", "jdbc:postgresql://h/hr"))));
    assertThat(d.resolve(Optional.of("hr"))).isEqualTo("hr");
    d.apply(SourceDatabases.of(SchemaragConfig.defaults().with(Map.of("sources", "hr", "sources.hr.db.url", "jdbc:postgresql://h/hr"))));
    assertThat(d.ids()).containsExactly("hr");
    assertThatThrownBy(() -> d.resolve(Optional.of("erp"))).isInstanceOf(Problem.Raised.class).hasMessageContaining("unknown database 'erp'");
  }
}
