package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The sample ERP database shipped in {@code data/schemas/erp}: {@code schema.sql} (81 tables in
 * six schemas, one per module, with comments and foreign keys), {@code data.sql} (deterministic
 * rows) and {@code docs/} (markdown docs of 18 tables with query patterns).
 */
final class SampleDatabase {

  static final String DATABASE_ID = "erp";
  static final List<String> SCHEMAS = List.of("hr", "sales", "finance", "inventory", "procurement", "support");
  static final Path DEFAULT_DIR = Path.of("data", "schemas", DATABASE_ID);

  private SampleDatabase() {}

  /** Drops and recreates the six schemas, then loads the rows; one transaction. */
  static void load(ConnectionSource db, Path dir) throws IOException, SQLException {
    Path schema = dir.resolve("schema.sql");
    Path data = dir.resolve("data.sql");
    for (Path p : List.of(schema, data)) {
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException("the sample database needs " + p + " (run from the repository root, or pass --dir)");
      }
    }
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute(Files.readString(schema, StandardCharsets.UTF_8));
      s.execute(Files.readString(data, StandardCharsets.UTF_8));
      c.commit();
      // Statistics right after the bulk load, as after a restore, rather than whenever autovacuum gets to it: the
      // catalog's column values (catalog.column.values) are read from them when the tables are snapshotted.
      c.setAutoCommit(true);
      s.execute("ANALYZE " + String.join(", ", tables(c)));
    }
  }

  /** The sample's tables, quoted, as ANALYZE lists them. */
  private static List<String> tables(Connection c) throws SQLException {
    List<String> out = new java.util.ArrayList<>();
    try (java.sql.PreparedStatement ps = c.prepareStatement(
        "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname = ANY (?) ORDER BY 1")) {
      ps.setArray(1, c.createArrayOf("text", SCHEMAS.toArray()));
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  /** Loads the database and copies its docs to where the doc watcher reads them: {@code <docsRoot>/erp/docs}. */
  static void loadWithDocs(ConnectionSource db, Path dir, Path docsRoot) throws IOException, SQLException {
    load(db, dir);
    Path to = docsRoot.resolve(DATABASE_ID).resolve("docs");
    Files.createDirectories(to);
    try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("docs"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".md")).toList()) {
        Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** The principals of the sample's roles (schema.sql creates them), and the default principal of local use. */
  static final String DEFAULT_PRINCIPAL = "local";
  static final List<String> ROLES = List.of("sales_analyst", "hr_manager");

  /**
   * The sample's access policy, unless one is configured: principals {@code sales_analyst} and
   * {@code hr_manager} run as the roles of those names; {@code local} (the default principal) and
   * the principal of the gateway's generated token run as the reader role, which reads everything.
   */
  static SchemaragConfig withAccessPolicy(SchemaragConfig config, String gatewayPrincipal) {
    if (config.optional(ConfigKeys.ACCESS_PRINCIPALS).isPresent() || config.optional(ConfigKeys.ACCESS_GROUPS).isPresent()) {
      return config;
    }
    String reader = config.get(ConfigKeys.READER_ROLE);
    java.util.Set<String> readers = new java.util.LinkedHashSet<>(List.of(DEFAULT_PRINCIPAL, gatewayPrincipal));
    // The principals of configured gateway tokens read everything too, unless they are one of the sample's roles.
    for (String entry : config.get(ConfigKeys.GATEWAY_TOKENS).split(",")) {
      String principal = entry.contains(":") ? entry.substring(0, entry.indexOf(':')).split("/")[0].trim() : "";
      if (!principal.isEmpty() && !ROLES.contains(principal)) {
        readers.add(principal);
      }
    }
    List<String> entries = new java.util.ArrayList<>(readers.stream().map(p -> p + "=" + reader).toList());
    ROLES.forEach(r -> entries.add(r + "=" + r));
    return config.with(java.util.Map.of(ConfigKeys.ACCESS_PRINCIPALS.name(), String.join(",", entries),
        ConfigKeys.ACCESS_DEFAULT_PRINCIPAL.name(), config.optional(ConfigKeys.ACCESS_DEFAULT_PRINCIPAL).orElse(DEFAULT_PRINCIPAL)));
  }

  static String schemasCsv() {
    return String.join(",", SCHEMAS);
  }
}
