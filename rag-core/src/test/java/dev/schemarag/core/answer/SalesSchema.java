package dev.schemarag.core.answer;

import dev.schemarag.core.store.ConnectionSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A small sales schema for answering tests, in a schema of its own per call: customers (Acme in DE,
 * Globex in US) and their orders (Acme 100 + 50, Globex 70).
 */
public final class SalesSchema {
  private SalesSchema() {}

  /** Creates the schema and returns its name. */
  public static String create(ConnectionSource admin, String prefix) throws SQLException {
    String s = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    try (Connection c = admin.open(); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + s);
      st.execute("CREATE TABLE " + s + ".customers (customer_id int PRIMARY KEY, name text, country text)");
      st.execute("COMMENT ON TABLE " + s + ".customers IS 'People and companies who buy from us'");
      st.execute("CREATE TABLE " + s + ".orders (order_id int PRIMARY KEY, customer_id int REFERENCES " + s + ".customers, total numeric)");
      st.execute("INSERT INTO " + s + ".customers VALUES (1, 'Acme', 'DE'), (2, 'Globex', 'US')");
      st.execute("INSERT INTO " + s + ".orders VALUES (10, 1, 100), (11, 1, 50), (12, 2, 70)");
    }
    return s;
  }
}
