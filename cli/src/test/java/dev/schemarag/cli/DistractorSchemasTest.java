package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistractorSchemasTest {

  /** A source of modules m0..m(count-1), module i holding i+1 tables, each table pointing at the module's first. */
  private static SchemaModel source(String name, String prefix, int count) {
    List<Table> tables = new ArrayList<>();
    List<ForeignKey> keys = new ArrayList<>();
    for (int m = 0; m < count; m++) {
      String module = prefix + m;
      for (int t = 0; t <= m; t++) {
        String table = module + "__t" + t;
        tables.add(new Table(table, Optional.empty(), List.of(new Column("id", "integer", false, Optional.empty(), Optional.empty(), true,
            Optional.empty())), Optional.of(module)));
        if (t > 0) {
          keys.add(new ForeignKey(table + "_fk", table, List.of("id"), module + "__t0", List.of("id")));
        }
      }
    }
    return new SchemaModel(name, tables, keys);
  }

  private static Set<String> modules(SchemaModel model) {
    return model.tables().stream().map(t -> t.module().orElseThrow()).collect(Collectors.toSet());
  }

  @Test
  void takesWholeModulesWithinTheLimitAndTheKeysAmongThem() {
    SchemaModel taken = DistractorSchemas.take("scale", List.of(source("a", "m", 10)), 20, 3, Set.of());
    assertThat(taken.size()).isBetween(1, 20);
    for (String module : modules(taken)) {
      int size = Integer.parseInt(module.substring(1)) + 1;
      assertThat(taken.tables().stream().filter(t -> t.module().orElseThrow().equals(module))).as(module).hasSize(size);
    }
    assertThat(taken.foreignKeys()).hasSize(taken.size() - modules(taken).size());
    assertThat(taken.foreignKeys()).allSatisfy(k -> assertThat(taken.table(k.toTable())).isPresent());
  }

  @Test
  void theSeedDecidesWhichModulesAndTheSameSeedTheSameOnes() {
    List<SchemaModel> sources = List.of(source("a", "m", 30));
    SchemaModel one = DistractorSchemas.take("scale", sources, 60, 3, Set.of());
    assertThat(DistractorSchemas.take("scale", sources, 60, 3, Set.of()).tables()).containsExactlyElementsOf(one.tables());
    assertThat(modules(DistractorSchemas.take("scale", sources, 60, 4, Set.of()))).isNotEqualTo(modules(one));
  }

  @Test
  void takesEverythingWhenTheLimitAllowsAndNothingAtZero() {
    SchemaModel all = DistractorSchemas.take("scale", List.of(source("a", "m", 4), source("b", "n", 3)), 100, 1, Set.of());
    assertThat(all.size()).isEqualTo(10 + 6);
    assertThat(DistractorSchemas.take("scale", List.of(source("a", "m", 4)), 0, 1, Set.of()).size()).isZero();
  }

  @Test
  void besideTheBaseTheGivenModulesComeFirstAndGeneratedTablesFillTheRest(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("given.json");
    Files.writeString(file, """
        {"name": "given", "tables": [
          {"name": "shop__store", "db_id": "shop", "description": "Stores", "columns": [{"name": "store_id", "type": "integer", "primary_key": true}]},
          {"name": "shop__till", "db_id": "shop", "columns": [{"name": "till_id", "type": "integer", "primary_key": true},
            {"name": "store_id", "type": "integer"}], "foreign_keys": [{"from_column": "store_id", "to_table": "shop__store", "to_column": "store_id"}]}]}
        """);
    SchemaModel base = source("bench", "b", 2);
    DistractorSchemas.Beside beside = DistractorSchemas.beside(base, List.of(file), 13, 50, Set.of("b0", "b1"));
    assertThat(beside.givenTables()).isEqualTo(2);
    assertThat(beside.model().size()).isEqualTo(base.size() + 50);
    assertThat(beside.model().table("shop__till")).isPresent();
    assertThat(beside.model().foreignKeys()).anySatisfy(k -> assertThat(k.toTable()).isEqualTo("shop__store"));
    // Without files, the generated tables alone, as before there were files to give.
    SchemaModel generatedOnly = DistractorSchemas.beside(base, List.of(), 13, 50, Set.of("b0", "b1")).model();
    assertThat(generatedOnly.tables()).containsExactlyElementsOf(
        EnterpriseSchemaGenerator.beside(base, "bench", 13, 50, Set.of("b0", "b1")).tables());
    assertThatThrownBy(() -> DistractorSchemas.beside(base, List.of(dir.resolve("missing.json")), 13, 50, Set.of()))
        .hasMessageContaining("missing.json");
  }

  @Test
  void allTheGivenTablesStandBesideTheBaseAndNoneIsGenerated(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("given.json");
    Files.writeString(file, """
        {"name": "given", "tables": [
          {"name": "shop__store", "db_id": "shop", "columns": [{"name": "store_id", "type": "integer", "primary_key": true}]},
          {"name": "crm__lead", "db_id": "crm", "columns": [{"name": "lead_id", "type": "integer", "primary_key": true}]}]}
        """);
    SchemaModel base = source("bench", "b", 2);
    SchemaModel all = DistractorSchemas.all(base, List.of(file));
    assertThat(all.databaseId()).isEqualTo("bench");
    assertThat(all.size()).isEqualTo(base.size() + 2);
    assertThat(all.tables()).containsAll(base.tables());
    assertThat(all.foreignKeys()).containsAll(base.foreignKeys());
    Path clash = dir.resolve("clash.json");
    Files.writeString(clash, """
        {"name": "clash", "tables": [{"name": "b1__x", "db_id": "B1", "columns": [{"name": "id", "type": "integer", "primary_key": true}]}]}
        """);
    assertThatThrownBy(() -> DistractorSchemas.all(base, List.of(clash))).hasMessageContaining("'B1'");
  }

  @Test
  void refusesAModuleNamedLikeABenchmarkSchemaOrHeldByTwoSources() {
    assertThatThrownBy(() -> DistractorSchemas.take("scale", List.of(source("a", "m", 3)), 10, 1, Set.of("m1")))
        .hasMessageContaining("'m1'").hasMessageContaining("benchmark schema");
    assertThatThrownBy(() -> DistractorSchemas.take("scale", List.of(source("a", "m", 3), source("b", "m", 2)), 10, 1, Set.of()))
        .hasMessageContaining("in both a and b");
  }

  @Test
  void aFolderGivesItsSchemaFilesInNameOrderAndAFolderWithoutOneIsRefused(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectory(dir.resolve("public"));
    Path b = Files.writeString(folder.resolve("b.json"), "{}");
    Path a = Files.writeString(folder.resolve("a.json.gz"), "{}");
    Files.writeString(folder.resolve("README.md"), "not a schema");
    Path single = Files.writeString(dir.resolve("single.json"), "{}");
    assertThat(DistractorSchemas.files(List.of(folder, single))).containsExactly(a, b, single);
    Path empty = Files.createDirectory(dir.resolve("empty"));
    assertThatThrownBy(() -> DistractorSchemas.files(List.of(empty))).hasMessageContaining("empty").hasMessageContaining("no .json");
    assertThatThrownBy(() -> DistractorSchemas.files(List.of(dir.resolve("missing.json")))).hasMessageContaining("missing.json")
        .hasMessageContaining("does not exist");
  }
}
