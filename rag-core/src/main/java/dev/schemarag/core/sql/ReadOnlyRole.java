package dev.schemarag.core.sql;

import dev.schemarag.core.store.ConnectionSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The database role generated SQL runs as: it can log in and SELECT from the monitored schemas,
 * nothing else, and its sessions start read-only. Created (or brought back to that state) by a
 * role that may create roles and grant on the schemas; {@link #problems} checks an existing role.
 */
public final class ReadOnlyRole {
  private ReadOnlyRole() {}

  /** Creates the role when missing and grants it read access to {@code schemas} (idempotent). */
  public static void ensure(ConnectionSource admin, String role, String password, List<String> schemas) throws SQLException {
    if (!role.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("role name must be a lower-case SQL identifier, not '" + role + "'");
    }
    try (Connection c = admin.open()) {
      boolean exists;
      try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
        ps.setString(1, role);
        try (ResultSet rs = ps.executeQuery()) {
          exists = rs.next();
        }
      }
      List<String> ddl = new ArrayList<>();
      // NOINHERIT: the role is made a member of the roles principals map to (to SET ROLE to them), and must
      // not take on their privileges or their row-level security policies when it runs as itself.
      ddl.add(format(c, exists ? "ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD %L"
          : "CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD %L", role, password));
      ddl.add(format(c, "ALTER ROLE %I SET default_transaction_read_only = on", role));
      for (String schema : schemas) {
        ddl.add(format(c, "GRANT USAGE ON SCHEMA %I TO %I", schema, role));
        ddl.add(format(c, "GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I", schema, role));
        ddl.add(format(c, "ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO %I", schema, role));
      }
      try (Statement s = c.createStatement()) {
        for (String d : ddl) {
          s.execute(d);
        }
      }
    }
  }

  /**
   * Makes {@code role} a member of each of {@code runAs} so that a question can {@code SET ROLE} to
   * the role its principal maps to (idempotent; needs the right to grant those roles).
   */
  public static void allowSetRole(ConnectionSource admin, String role, java.util.Collection<String> runAs) throws SQLException {
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      for (String target : runAs) {
        if (!target.equals(role)) {
          s.execute(format(c, "GRANT %I TO %I", target, role));
        }
      }
    }
  }

  /** What makes an existing role unfit to run generated SQL over {@code schemas} (empty when it is fit). */
  public static List<String> problems(ConnectionSource admin, String role, List<String> schemas) throws SQLException {
    List<String> out = problems(admin, role);
    if (!out.isEmpty()) {
      return out;
    }
    try (Connection c = admin.open();
         PreparedStatement ps = c.prepareStatement("SELECT has_schema_privilege(?, ?, 'USAGE')")) {
      for (String schema : schemas) {
        ps.setString(1, role);
        ps.setString(2, schema);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next() && !rs.getBoolean(1)) {
            out.add("role " + role + " cannot use schema " + schema);
          }
        }
      }
    }
    return out;
  }

  /** What makes an existing role unfit to run generated SQL (empty when it is fit). */
  public static List<String> problems(ConnectionSource admin, String role) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = admin.open();
         PreparedStatement ps = c.prepareStatement("SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls,"
             + " (SELECT count(*) FROM pg_class WHERE relowner = r.oid AND relkind IN ('r', 'p', 'v', 'm')),"
             + " (SELECT count(*) FROM information_schema.role_table_grants g WHERE g.grantee = r.rolname"
             + "  AND g.privilege_type NOT IN ('SELECT'))"
             + " FROM pg_roles r WHERE rolname = ?")) {
      ps.setString(1, role);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          out.add("role " + role + " does not exist");
          return out;
        }
        String[] flags = {"superuser", "createrole", "createdb", "replication", "bypassrls"};
        for (int i = 0; i < flags.length; i++) {
          if (rs.getBoolean(i + 1)) {
            out.add("role " + role + " has " + flags[i]);
          }
        }
        if (rs.getLong(6) > 0) {
          out.add("role " + role + " owns " + rs.getLong(6) + " relations (an owner can write them)");
        }
        if (rs.getLong(7) > 0) {
          out.add("role " + role + " holds " + rs.getLong(7) + " table privileges other than SELECT");
        }
      }
    }
    return out;
  }

  private static String format(Connection c, String template, String... args) throws SQLException {
    StringBuilder call = new StringBuilder("SELECT format(?");
    for (int i = 0; i < args.length; i++) {
      call.append(", ?");
    }
    call.append(')');
    try (PreparedStatement ps = c.prepareStatement(call.toString())) {
      ps.setString(1, template);
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 2, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
