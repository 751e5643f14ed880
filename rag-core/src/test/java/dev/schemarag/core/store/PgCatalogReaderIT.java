package dev.schemarag.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.infra.TestInfra;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class PgCatalogReaderIT {

  @Test
  void readsColumnsKeysCommentsAndForeignKeysBothWays() throws Exception {
    String schema = "it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    ConnectionSource db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      s.execute("CREATE TABLE " + schema + ".customers (customer_id bigint PRIMARY KEY, email text NOT NULL, tier text DEFAULT 'basic')");
      s.execute("CREATE TABLE " + schema + ".orders (order_id bigint PRIMARY KEY, customer_id bigint REFERENCES " + schema
          + ".customers, total numeric(12,2))");
      s.execute("COMMENT ON TABLE " + schema + ".orders IS 'Customer orders'");
      s.execute("COMMENT ON COLUMN " + schema + ".orders.total IS 'Order total with tax'");
    }
    SchemaModel m = new PgCatalogReader(db).read("erp", List.of(schema));

    Table orders = m.table(schema + ".orders").orElseThrow();
    assertThat(orders.comment()).contains("Customer orders");
    assertThat(orders.module()).contains(schema);
    assertThat(orders.primaryKey()).containsExactly("order_id");
    Column total = orders.column("total").orElseThrow();
    assertThat(total.type()).isEqualTo("numeric(12,2)");
    assertThat(total.comment()).contains("Order total with tax");
    assertThat(orders.column("customer_id").orElseThrow().references()).contains(schema + ".customers.customer_id");
    Table customers = m.table(schema + ".customers").orElseThrow();
    assertThat(customers.column("email").orElseThrow().nullable()).isFalse();
    assertThat(customers.column("tier").orElseThrow().defaultValue()).contains("'basic'::text");
    assertThat(m.outgoing(schema + ".orders")).hasSize(1);
    assertThat(m.incoming(schema + ".customers")).hasSize(1);
    assertThat(m.neighbours(schema + ".customers")).containsExactly(schema + ".orders");
  }

  @Test
  void readsTheCommonValuesOfCategoricalTextColumnsFromTheStatisticsOnlyWhenAsked() throws Exception {
    String schema = "it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    ConnectionSource db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      s.execute("CREATE TYPE " + schema + ".mood AS ENUM ('calm', 'angry')");
      s.execute("CREATE TABLE " + schema + ".tickets (ticket_id int PRIMARY KEY, priority text, mood " + schema + ".mood,"
          + " email text, code text, seats int, device text)");
      // 300 tickets: four priorities (urgent the most common), an e-mail each, codes, few seat counts, a device each.
      s.execute("INSERT INTO " + schema + ".tickets SELECT i, CASE WHEN i % 2 = 0 THEN 'urgent' ELSE (ARRAY['high','normal','low'])[1 + i % 3] END,"
          + " (CASE WHEN i % 3 = 0 THEN 'angry' ELSE 'calm' END)::" + schema + ".mood, 'user' || i || '@example.com', 'T-' || (i % 5), i % 4,"
          + " (ARRAY['Laptop','Router','Headset'])[1 + i % 3] || ' model ' || i FROM generate_series(1, 300) AS i");
    }
    PgCatalogReader reader = new PgCatalogReader(db, 10);
    // Never analyzed: no statistics, so no values, and no scan of the table to find them.
    assertThat(reader.read("erp", List.of(schema)).table(schema + ".tickets").orElseThrow().columns())
        .allSatisfy(col -> assertThat(col.values()).isEmpty());
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("ANALYZE " + schema + ".tickets");
    }
    Table tickets = reader.read("erp", List.of(schema)).table(schema + ".tickets").orElseThrow();
    assertThat(tickets.column("priority").orElseThrow().values()).startsWith("urgent").containsExactlyInAnyOrder("urgent", "high", "normal", "low");
    assertThat(tickets.column("mood").orElseThrow().values()).containsExactly("calm", "angry");
    assertThat(tickets.column("email").orElseThrow().values()).as("every row distinct: not a category").isEmpty();
    assertThat(tickets.column("code").orElseThrow().values()).as("codes say nothing").isEmpty();
    assertThat(tickets.column("seats").orElseThrow().values()).as("numbers are not read").isEmpty();
    assertThat(tickets.column("device").orElseThrow().values()).as("every row distinct, of three kinds").containsExactlyInAnyOrder("%Laptop%", "%Router%", "%Headset%");
    assertThat(new PgCatalogReader(db, 2).read("erp", List.of(schema)).table(schema + ".tickets").orElseThrow()
        .column("priority").orElseThrow().values()).hasSize(2).startsWith("urgent");
    assertThat(new PgCatalogReader(db).read("erp", List.of(schema)).table(schema + ".tickets").orElseThrow().columns())
        .allSatisfy(col -> assertThat(col.values()).isEmpty());
    // The named-tables read sees them as the full read does.
    assertThat(reader.readTables("erp", List.of(schema), List.of(schema + ".tickets")).table(schema + ".tickets")).contains(tickets);
  }

  @Test
  void readsNamedTablesWithTheTablesTheirKeysTouchAsTheFullReadDoes() throws Exception {
    String schema = "it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    ConnectionSource db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      s.execute("CREATE TABLE " + schema + ".customers (customer_id bigint PRIMARY KEY, email text)");
      s.execute("CREATE TABLE " + schema + ".orders (order_id bigint PRIMARY KEY, customer_id bigint REFERENCES " + schema + ".customers)");
      s.execute("CREATE TABLE " + schema + ".order_lines (order_id bigint REFERENCES " + schema + ".orders, qty int)");
      s.execute("CREATE TABLE " + schema + ".products (product_id bigint PRIMARY KEY)");
      s.execute("COMMENT ON TABLE " + schema + ".orders IS 'Customer orders'");
    }
    PgCatalogReader reader = new PgCatalogReader(db);
    SchemaModel full = reader.read("erp", List.of(schema));
    String orders = schema + ".orders";
    SchemaModel around = reader.readTables("erp", List.of(schema), List.of(orders, schema + ".gone"));

    assertThat(around.tables()).extracting(Table::name)
        .containsExactlyInAnyOrder(orders, schema + ".customers", schema + ".order_lines");
    assertThat(around.table(orders)).isEqualTo(full.table(orders));
    assertThat(around.edges(orders)).containsExactlyInAnyOrderElementsOf(full.edges(orders));
    assertThat(around.table(schema + ".gone")).isEmpty();
    assertThat(reader.readTables("erp", List.of(schema), List.of(schema + ".products")).tables()).extracting(Table::name)
        .containsExactly(schema + ".products");
  }

  @Test
  void findsANamedTableByItsExactModelNameWhereDotsCouldSplitItSeveralWays() throws Exception {
    String schema = "it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String bare = schema + "_bare";
    ConnectionSource db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
      s.execute("CREATE SCHEMA \"" + schema + ".a\"");
      // Model names "<schema>.a.b" twice over: table "a.b" of <schema>, and table "b" of schema "<schema>.a".
      s.execute("CREATE TABLE " + schema + ".\"a.b\" (id int)");
      s.execute("CREATE TABLE \"" + schema + ".a\".b (id int, extra int)");
      s.execute("CREATE TABLE public." + bare + " (id int)");
      s.execute("CREATE TABLE " + schema + "." + bare + " (id int, other int)");
    }
    try {
      PgCatalogReader reader = new PgCatalogReader(db);
      List<String> schemas = List.of("public", schema, schema + ".a");
      SchemaModel full = reader.read("erp", schemas);

      // A bare name is a table of public, not the same-named table of another schema.
      SchemaModel publicOne = reader.readTables("erp", schemas, List.of(bare));
      assertThat(publicOne.tables()).extracting(Table::name).containsExactly(bare);
      assertThat(publicOne.table(bare)).isEqualTo(full.table(bare));
      assertThat(reader.readTables("erp", schemas, List.of(schema + "." + bare)).table(schema + "." + bare))
          .isEqualTo(full.table(schema + "." + bare));
      // Both readings of an ambiguous name are what the full read names so, and nothing else.
      assertThat(reader.readTables("erp", schemas, List.of(schema + ".a.b")).tables())
          .containsExactlyInAnyOrderElementsOf(full.tables().stream().filter(t -> t.name().equals(schema + ".a.b")).toList());
    } finally {
      try (Connection c = db.open(); Statement s = c.createStatement()) {
        s.execute("DROP TABLE public." + bare);
      }
    }
  }
}
