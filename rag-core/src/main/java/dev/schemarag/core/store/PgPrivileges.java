package dev.schemarag.core.store;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.source.PgCatalogReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads from the catalog what a role may SELECT in the monitored schemas: schema USAGE and table or
 * column privileges, as PostgreSQL itself decides them (membership and PUBLIC included). Any role
 * may ask this of any other.
 */
public final class PgPrivileges {
  private PgPrivileges() {}

  public static SchemaView view(ConnectionSource db, String role, List<String> schemas) throws SQLException {
    Map<String, Set<String>> columns = new HashMap<>();
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("""
        SELECT n.nspname, cl.relname, a.attname
          FROM pg_class cl
          JOIN pg_namespace n ON n.oid = cl.relnamespace
          JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attnum > 0 AND NOT a.attisdropped
         WHERE n.nspname = ANY (?) AND cl.relkind IN ('r', 'p', 'v', 'm', 'f')
           AND has_schema_privilege(?, n.oid, 'USAGE')
           AND has_column_privilege(?, cl.oid, a.attnum, 'SELECT')""")) {
      ps.setArray(1, c.createArrayOf("text", schemas.toArray()));
      ps.setString(2, role);
      ps.setString(3, role);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          columns.computeIfAbsent(PgCatalogReader.modelName(rs.getString(1), rs.getString(2)), k -> new HashSet<>()).add(rs.getString(3));
        }
      }
    }
    return new SchemaView(role, columns);
  }

  /** Problems that keep {@code login} from running questions as {@code role} (empty when it can). */
  public static List<String> roleProblems(ConnectionSource db, String login, String role) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT rolsuper, pg_has_role(?, oid, 'MEMBER') FROM pg_roles WHERE rolname = ?")) {
      ps.setString(1, login);
      ps.setString(2, role);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return List.of("role " + role + " does not exist");
        }
        if (rs.getBoolean(1)) {
          return List.of("role " + role + " is a superuser: it would bypass every grant and row-level security policy");
        }
        if (!rs.getBoolean(2)) {
          return List.of("role " + login + " is not a member of " + role + ", so it cannot SET ROLE to it (GRANT " + role + " TO " + login + ")");
        }
        return List.of();
      }
    }
  }
}
