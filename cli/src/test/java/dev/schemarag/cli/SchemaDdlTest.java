package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaDdlTest {

  private static Column column(String name, String type, boolean pk, String comment) {
    return new Column(name, type, !pk, Optional.empty(), Optional.ofNullable(comment), pk, Optional.empty());
  }

  @Test
  void tablesKeysCommentsAndEveryOneColumnForeignKeyBecomeDdl() {
    SchemaModel model = new SchemaModel("bench", List.of(
        new Table("shop__customer", Optional.of("People who buy"), List.of(column("Customer_ID", "number", true, null),
            column("Name", "text", false, "the customer's name")), Optional.of("shop")),
        new Table("shop__order", Optional.empty(), List.of(column("id", "number", true, null), column("Customer_ID", "number", false, null),
            column("Customer_Name", "text", false, null), column("shipped_to", "text", false, null)), Optional.of("shop"))),
        List.of(new ForeignKey("a", "shop__order", List.of("Customer_ID"), "shop__customer", List.of("Customer_ID")),
            new ForeignKey("b", "shop__order", List.of("customer_name"), "shop__customer", List.of("Name")),
            new ForeignKey("c", "shop__order", List.of("shipped_to"), "shop__customer", List.of("Customer_ID")),
            new ForeignKey("d", "shop__order", List.of("Customer_ID", "Customer_Name"), "shop__customer", List.of("Customer_ID", "Name"))));
    SchemaDdl.Ddl ddl = SchemaDdl.of(model, "s");
    assertThat(ddl.statements()).containsSubsequence(
        "CREATE TABLE \"s\".\"shop__customer\" (\"Customer_ID\" numeric, \"Name\" text, PRIMARY KEY (\"Customer_ID\"))",
        "COMMENT ON TABLE \"s\".\"shop__customer\" IS 'People who buy'",
        "COMMENT ON COLUMN \"s\".\"shop__customer\".\"Name\" IS 'the customer''s name'",
        // a text column that references a number takes the number's type
        "CREATE TABLE \"s\".\"shop__order\" (\"id\" numeric, \"Customer_ID\" numeric, \"Customer_Name\" text, \"shipped_to\" numeric,"
            + " PRIMARY KEY (\"id\"))",
        "ALTER TABLE \"s\".\"shop__order\" ADD FOREIGN KEY (\"Customer_ID\") REFERENCES \"s\".\"shop__customer\" (\"Customer_ID\")",
        // onto a column that is not the primary key: unique first, as PostgreSQL asks, spelled as the table spells it
        "ALTER TABLE \"s\".\"shop__customer\" ADD UNIQUE (\"Name\")",
        "ALTER TABLE \"s\".\"shop__order\" ADD FOREIGN KEY (\"Customer_Name\") REFERENCES \"s\".\"shop__customer\" (\"Name\")",
        "ALTER TABLE \"s\".\"shop__order\" ADD FOREIGN KEY (\"shipped_to\") REFERENCES \"s\".\"shop__customer\" (\"Customer_ID\")");
    // of two columns
    assertThat(ddl.skippedForeignKeys()).isEqualTo(1);
    assertThat(SchemaDdl.pgType("others")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("time")).isEqualTo("timestamp");
    assertThat(SchemaDdl.pgType("datetime")).isEqualTo("timestamp");
    assertThat(SchemaDdl.pgType("REAL")).isEqualTo("REAL");
    assertThat(SchemaDdl.pgType("VARCHAR(32)")).isEqualTo("VARCHAR(32)");
    assertThat(SchemaDdl.pgType("decimal(20, 4)")).isEqualTo("decimal(20, 4)");
    assertThat(SchemaDdl.pgType("timestamp with time zone")).isEqualTo("timestamp with time zone");
    // an application's own types, and another database's, are text
    assertThat(SchemaDdl.pgType("Data")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("id")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("Link(Company)")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("int(11)")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("INT UNSIGNED")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("double(24,8)")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("float(24,8)")).isEqualTo("text");
    assertThat(SchemaDdl.pgType("float(24)")).isEqualTo("float(24)");
  }

  @Test
  void aColumnThatReferencesKeysOfTwoTypesKeepsOneOfItsKeysAndAChainIsFollowedToItsEnd() {
    SchemaModel model = new SchemaModel("bench", List.of(
        new Table("a", Optional.empty(), List.of(column("id", "integer", true, null)), Optional.of("m")),
        new Table("b", Optional.empty(), List.of(column("code", "text", true, null)), Optional.of("m")),
        new Table("c", Optional.empty(), List.of(column("id", "text", true, null), column("ref", "text", false, null)), Optional.of("m")),
        new Table("d", Optional.empty(), List.of(column("id", "text", true, null), column("c_ref", "text", false, null)), Optional.of("m"))),
        List.of(new ForeignKey("1", "c", List.of("ref"), "a", List.of("id")),
            new ForeignKey("2", "c", List.of("ref"), "b", List.of("code")),
            new ForeignKey("3", "d", List.of("c_ref"), "c", List.of("ref")),
            new ForeignKey("4", "c", List.of("id"), "d", List.of("id"))));
    SchemaDdl.Ddl ddl = SchemaDdl.of(model, "s");
    // c.ref takes the last key's type (b.code, text); d.c_ref follows it; the key onto a.id cannot be written
    assertThat(ddl.statements()).contains("CREATE TABLE \"s\".\"c\" (\"id\" text, \"ref\" text, PRIMARY KEY (\"id\"))",
        "ALTER TABLE \"s\".\"c\" ADD FOREIGN KEY (\"ref\") REFERENCES \"s\".\"b\" (\"code\")",
        "ALTER TABLE \"s\".\"d\" ADD FOREIGN KEY (\"c_ref\") REFERENCES \"s\".\"c\" (\"ref\")",
        "ALTER TABLE \"s\".\"c\" ADD FOREIGN KEY (\"id\") REFERENCES \"s\".\"d\" (\"id\")");
    assertThat(ddl.statements()).noneMatch(st -> st.contains("REFERENCES \"s\".\"a\""));
    assertThat(ddl.skippedForeignKeys()).isEqualTo(1);
  }

  @Test
  void inModulesPutsEachTableInTheSchemaOfItsModuleUnderItsOwnName() {
    SchemaModel model = new SchemaModel("bench", List.of(
        new Table("Shop_A__customer", Optional.empty(), List.of(column("id", "number", true, null)), Optional.of("Shop_A")),
        new Table("hr.employees", Optional.empty(), List.of(column("employee_id", "integer", true, null),
            column("customer_id", "number", false, null)), Optional.of("hr"))),
        List.of(new ForeignKey("a", "hr.employees", List.of("customer_id"), "Shop_A__customer", List.of("id"))));
    SchemaDdl.Ddl ddl = SchemaDdl.inModules(model);
    assertThat(ddl.statements()).contains("CREATE SCHEMA \"shop_a\"", "CREATE SCHEMA \"hr\"",
        "CREATE TABLE \"shop_a\".\"customer\" (\"id\" numeric, PRIMARY KEY (\"id\"))",
        "CREATE TABLE \"hr\".\"employees\" (\"employee_id\" integer, \"customer_id\" numeric, PRIMARY KEY (\"employee_id\"))",
        "ALTER TABLE \"hr\".\"employees\" ADD FOREIGN KEY (\"customer_id\") REFERENCES \"shop_a\".\"customer\" (\"id\")");
    assertThat(SchemaDdl.placeInModule(model.table("hr.employees").orElseThrow()).modelName()).isEqualTo("hr.employees");
    assertThat(SchemaDdl.placeInModule(model.table("Shop_A__customer").orElseThrow()).modelName()).isEqualTo("shop_a.customer");
  }
}
