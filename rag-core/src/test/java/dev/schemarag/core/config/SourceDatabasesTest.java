package dev.schemarag.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceDatabasesTest {

  @TempDir Path dir;

  private SchemaragConfig load(String file, Map<String, String> env) throws IOException {
    Path f = dir.resolve("schemarag.properties");
    Files.writeString(f, file);
    return SchemaragConfig.load(Optional.of(f), env, Map.of());
  }

  @Test
  void withoutSourcesTheSingleSourceKeysAreTheOneSource() {
    SchemaragConfig c = SchemaragConfig.defaults().with(Map.of("db.url", "jdbc:postgresql://h:5432/shop", "database.id", "shop",
        "catalog.schemas", "sales,hr"));
    List<SourceDatabase> sources = SourceDatabases.of(c);
    assertThat(sources).hasSize(1);
    SourceDatabase s = sources.get(0);
    assertThat(s.id()).isEqualTo("shop");
    assertThat(s.url()).isEqualTo("jdbc:postgresql://h:5432/shop");
    assertThat(s.schemas()).containsExactly("sales", "hr");
    assertThat(s.slot()).isEqualTo("schemarag_ddl");
    assertThat(s.publication()).isEqualTo("schemarag_ddl");
    assertThat(s.docsDir()).isEqualTo(Path.of("data/schemas/shop/docs"));
  }

  @Test
  void eachListedSourceHasItsOwnSettingsAndFallsBackToTheGlobalOnes() throws IOException {
    SchemaragConfig c = load("""
        sources=erp,crm
        db.user=app
        catalog.schemas=public
        sources.erp.db.url=jdbc:postgresql://h:5432/erp
        sources.erp.catalog.schemas=sales,hr
        sources.crm.db.url=jdbc:postgresql://h:5432/crm
        sources.crm.docs.root=/srv/docs
        sources.crm.db.user=crm_app
        """, Map.of());
    List<SourceDatabase> sources = SourceDatabases.of(c);
    assertThat(sources).extracting(SourceDatabase::id).containsExactly("erp", "crm");
    SourceDatabase erp = sources.get(0);
    SourceDatabase crm = sources.get(1);
    assertThat(erp.schemas()).containsExactly("sales", "hr");
    assertThat(erp.user()).isEqualTo("app");
    assertThat(erp.slot()).isEqualTo("schemarag_ddl_erp");
    assertThat(crm.slot()).isEqualTo("schemarag_ddl_crm");
    assertThat(crm.publication()).isEqualTo("schemarag_ddl");
    assertThat(crm.user()).isEqualTo("crm_app");
    assertThat(crm.schemas()).containsExactly("public");
    assertThat(crm.docsDir()).isEqualTo(Path.of("/srv/docs/crm/docs"));
    assertThat(c.passThrough()).as("per-source keys go to no library").isEmpty();
  }

  @Test
  void environmentVariablesSetPerSourceKeysAndWinOverTheFile() throws IOException {
    SchemaragConfig c = load("sources=erp,sales_eu\nsources.erp.db.url=jdbc:postgresql://file/erp\n", Map.of(
        "SCHEMARAG_SOURCES_ERP_DB_URL", "jdbc:postgresql://env/erp",
        "SCHEMARAG_SOURCES_SALES_EU_DB_URL", "jdbc:postgresql://env/sales",
        "SCHEMARAG_SOURCES_SALES_EU_INGEST_SLOT_NAME", "eu_slot"));
    assertThat(SourceDatabases.of(c)).extracting(SourceDatabase::url)
        .containsExactly("jdbc:postgresql://env/erp", "jdbc:postgresql://env/sales");
    assertThat(SourceDatabases.of(c).get(1).slot()).isEqualTo("eu_slot");
    assertThat(c.sourceOf("sources.erp.db.url")).isEqualTo("env SCHEMARAG_SOURCES_ERP_DB_URL");
  }

  @Test
  void aSourceWithoutUrlIsRejectedNamingTheKeyAndVariable() {
    assertThatThrownBy(() -> load("sources=erp,crm\nsources.erp.db.url=jdbc:postgresql://h/erp\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("source 'crm' has no sources.crm.db.url (env SCHEMARAG_SOURCES_CRM_DB_URL)");
  }

  @Test
  void settingsOfAnUnlistedSourceAreRejected() {
    assertThatThrownBy(() -> load("sources=erp\nsources.erp.db.url=jdbc:postgresql://h/erp\nsources.crn.db.url=jdbc:postgresql://h/crm\n",
        Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'sources.crn.db.url' configures source 'crn', which sources does not list (sources=erp)");
  }

  @Test
  void anUnknownPerSourceKeyIsRejectedWithTheClosestOne() {
    assertThatThrownBy(() -> load("sources=erp\nsources.erp.db.uri=jdbc:postgresql://h/erp\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown per-source key 'sources.erp.db.uri'")
        .hasMessageContaining("did you mean 'sources.erp.db.url'?");
    assertThatThrownBy(() -> load("sources.erp=jdbc:postgresql://h/erp\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("names no source key");
  }

  @Test
  void malformedOrRepeatedIdsAreRejected() {
    assertThatThrownBy(() -> load("sources=erp,Sales-EU\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("source id 'Sales-EU' in sources is not valid");
    assertThatThrownBy(() -> load("sources=erp,erp\nsources.erp.db.url=jdbc:postgresql://h/erp\n", Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("source id 'erp' is listed twice");
  }

  @Test
  void twoSourcesOnOneSlotOfOneClusterAreRejected() {
    assertThatThrownBy(() -> load("""
        sources=erp,crm
        sources.erp.db.url=jdbc:postgresql://h:5432/erp
        sources.crm.db.url=jdbc:postgresql://h:5432/crm?sslmode=disable
        sources.crm.ingest.slot.name=schemarag_ddl_erp
        """, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sources 'erp' and 'crm' use the same replication slot 'schemarag_ddl_erp' in one cluster");
  }

  @Test
  void anUnknownVariableUnderSourcesIsStillRejected() {
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.empty(), Map.of("SCHEMARAG_SOURCES_ERP_DB_URI", "x"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown variable SCHEMARAG_SOURCES_ERP_DB_URI");
  }
}
