package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class EnterpriseSchemaGeneratorTest {

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  @Test
  void theSameSeedGivesTheSameSchemaAndAnotherSeedAnother() {
    SchemaModel a = EnterpriseSchemaGenerator.generate("db", 7, 1500, Set.of());
    SchemaModel b = EnterpriseSchemaGenerator.generate("db", 7, 1500, Set.of());
    SchemaModel c = EnterpriseSchemaGenerator.generate("db", 8, 1500, Set.of());
    assertThat(b.tables()).containsExactlyElementsOf(a.tables());
    assertThat(b.foreignKeys()).containsExactlyElementsOf(a.foreignKeys());
    assertThat(c.tables()).isNotEqualTo(List.copyOf(a.tables()));
  }

  @Test
  void givesExactlyTheTablesAskedFor() {
    for (int n : new int[] {0, 1, 49, 1000, 9049}) {
      assertThat(EnterpriseSchemaGenerator.generate("db", 13, n, Set.of()).size()).as("%d tables", n).isEqualTo(n);
    }
  }

  @Test
  void foreignKeysPointAtPrimaryKeysOfTheSameType() {
    SchemaModel model = EnterpriseSchemaGenerator.generate("db", 13, 3000, Set.of());
    assertThat(model.foreignKeys()).isNotEmpty();
    Set<String> modulesCrossed = new HashSet<>();
    for (ForeignKey fk : model.foreignKeys()) {
      Table from = model.table(fk.fromTable()).orElseThrow();
      Table to = model.table(fk.toTable()).orElseThrow();
      assertThat(to.primaryKey()).as(fk.name()).isEqualTo(fk.toColumns());
      Column column = from.column(fk.fromColumns().get(0)).orElseThrow();
      assertThat(column.type()).as(fk.name()).isEqualTo(to.column(fk.toColumns().get(0)).orElseThrow().type());
      if (!from.module().equals(to.module())) {
        modulesCrossed.add(to.name());
      }
    }
    // Across modules only a few hub tables are pointed at.
    assertThat(modulesCrossed).isNotEmpty().hasSizeLessThanOrEqualTo(5);
    // Every generated foreign key is one PostgreSQL takes.
    assertThat(SchemaDdl.inModules(model).skippedForeignKeys()).isZero();
  }

  @Test
  void namesAreValidIdentifiersAndEveryTableAndColumnHasAComment() {
    SchemaModel model = EnterpriseSchemaGenerator.generate("db", 13, 9049, Set.of());
    Set<String> modules = new HashSet<>();
    List<String> problems = new ArrayList<>();
    for (Table t : model.tables()) {
      SchemaDdl.Placement at = SchemaDdl.placeInModule(t);
      modules.add(at.schema());
      if (!IDENTIFIER.matcher(at.schema()).matches() || !IDENTIFIER.matcher(at.table()).matches()) {
        problems.add("name " + t.name());
      }
      if (t.comment().isEmpty() || t.primaryKey().size() != 1) {
        problems.add("comment or primary key of " + t.name());
      }
      Set<String> names = new HashSet<>();
      for (Column c : t.columns()) {
        if (!IDENTIFIER.matcher(c.name()).matches() || !names.add(c.name()) || c.comment().isEmpty()) {
          problems.add("column " + t.name() + "." + c.name());
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(modules).contains("hr", "sales", "inventory", "procurement", "finance", "logistics", "manufacturing", "crm", "projects",
        "assets", "sales_emea");
  }

  @Test
  void refusesAModuleNameTheBenchmarkAlreadyHas() {
    assertThatThrownBy(() -> EnterpriseSchemaGenerator.generate("db", 13, 100, Set.of("hr")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'hr'");
  }
}
