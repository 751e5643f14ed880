package dev.schemarag.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaJsonLoaderTest {

  private static SchemaModel parse(String json) throws Exception {
    return SchemaJsonLoader.parse(new ObjectMapper().readTree(json), "test.json");
  }

  @Test
  void readsTablesColumnsKeysAndModules() throws Exception {
    SchemaModel m = parse("""
        {"name": "shop", "tables": [
          {"name": "shop__orders", "db_id": "shop", "original_name": "orders", "description": "customer orders",
           "columns": [{"name": "id", "type": "number", "primary_key": true, "description": "id"},
                       {"name": "CustID", "type": "number", "description": "customer id", "column_description": "who ordered"}],
           "foreign_keys": [{"from_column": "CustID", "to_table": "shop__customers", "to_column": "id"}]},
          {"name": "shop__customers", "db_id": "shop", "original_name": "customers", "description": "customers",
           "columns": [{"name": "id", "type": "number", "primary_key": true}], "foreign_keys": []}]}
        """);
    assertThat(m.databaseId()).isEqualTo("shop");
    Table orders = m.table("shop__orders").orElseThrow();
    assertThat(orders.module()).contains("shop");
    assertThat(orders.comment()).contains("customer orders");
    assertThat(orders.primaryKey()).containsExactly("id");
    assertThat(orders.column("CustID").orElseThrow().comment()).contains("customer id; who ordered");
    assertThat(orders.column("CustID").orElseThrow().references()).contains("shop__customers.id");
    // a description that only repeats the name is dropped
    assertThat(m.table("shop__customers").orElseThrow().comment()).isEmpty();
    assertThat(m.neighbours("shop__customers")).containsExactly("shop__orders");
    assertThat(m.incoming("shop__customers")).hasSize(1);
  }

  @Test
  void badInputNamesTheProblem() {
    assertThatThrownBy(() -> parse("{\"tables\": {}}")).hasMessageContaining("test.json").hasMessageContaining("\"tables\" array");
    assertThatThrownBy(() -> parse("{\"tables\": [{\"columns\": []}]}")).hasMessageContaining("table #0 has no \"name\"");
  }

  @Test
  void aGzippedFileReadsAsItsPlainCopyAndABrokenOneIsNamed(@TempDir Path dir) throws Exception {
    String json = """
        {"name": "shop", "tables": [{"name": "shop__orders", "db_id": "shop", "columns": [{"name": "id", "type": "int"}]}]}
        """;
    Path plain = Files.writeString(dir.resolve("shop.json"), json);
    Path zipped = dir.resolve("shop.json.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(zipped))) {
      out.write(json.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(List.copyOf(SchemaJsonLoader.load(zipped).tables())).isEqualTo(List.copyOf(SchemaJsonLoader.load(plain).tables()));
    Path broken = Files.writeString(dir.resolve("broken.json.gz"), json);
    assertThatThrownBy(() -> SchemaJsonLoader.load(broken)).hasMessageContaining("broken.json.gz");
  }
}
