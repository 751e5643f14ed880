package dev.schemarag.ingest;

import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Installs, idempotently, what DDL capture needs in the monitored database: the audit schema with
 * its log table, event triggers on {@code ddl_command_end} and {@code sql_drop} that write to it,
 * and a publication covering only the log table. Logical decoding carries no DDL; the log's
 * inserts are what Debezium streams.
 *
 * <p>Privileges: creating event triggers needs a superuser (PostgreSQL allows nothing less), and
 * streaming needs REPLICATION (or superuser). Once installed by an administrator, the service runs
 * with a role that has REPLICATION and owns nothing else.
 */
public final class AuditInstaller {

  public static final String SCHEMA = "schemarag_audit";
  public static final String LOG_TABLE = SCHEMA + ".ddl_log";
  static final String DDL_TRIGGER = "schemarag_ddl_end";
  static final String DROP_TRIGGER = "schemarag_sql_drop";

  private final ConnectionSource db;
  private final String publication;

  public AuditInstaller(ConnectionSource db, String publication) {
    this.db = db;
    this.publication = publication;
  }

  /** Schemas whose DDL the triggers never log: the service's own. */
  static String ownSchemas() {
    return "('" + SCHEMA + "', '" + PgChunkStore.SCHEMA + "')";
  }

  public void install() throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      Privileges p = privileges(c);
      List<String> missing = missing(c);
      if (!missing.isEmpty() && !p.superuser()) {
        throw new IllegalStateException("DDL capture is not installed (missing: " + String.join(", ", missing) + ") and role '"
            + p.role() + "' is not a superuser; creating event triggers needs one. Run the service once as a superuser,"
            + " or have an administrator install it (README, 'Privileges the ingest service needs').");
      }
      if (!p.superuser() && !p.replication()) {
        throw new IllegalStateException("role '" + p.role() + "' has neither REPLICATION nor SUPERUSER; Debezium needs one of them"
            + " to stream the audit log (ALTER ROLE " + p.role() + " REPLICATION)");
      }
      if (missing.isEmpty()) {
        return;
      }
      c.setAutoCommit(false);
      s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
      s.execute("CREATE TABLE IF NOT EXISTS " + LOG_TABLE + " ("
          + "event_id bigserial PRIMARY KEY, phase text NOT NULL, command_tag text NOT NULL, object_type text, schema_name text,"
          + " object_identity text, objid bigint, previous_identity text, statement text,"
          + " txid bigint NOT NULL DEFAULT txid_current(),"
          + " executed_at_ms bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint)");
      // The last known identity of every relation, so a rename can name what it renamed.
      s.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".known_relations (objid bigint PRIMARY KEY, identity text NOT NULL)");
      s.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + ".ingest_state (database_id text PRIMARY KEY, initial_snapshot_at timestamptz NOT NULL)");
      s.execute("INSERT INTO " + SCHEMA + ".known_relations (objid, identity)"
          + " SELECT c.oid::int8, quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c"
          + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')"
          + " AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'"
          + " ON CONFLICT (objid) DO NOTHING");
      s.execute("CREATE OR REPLACE FUNCTION " + SCHEMA + ".log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $fn$\n"
          + "DECLARE r record; prev text;\n"
          + "BEGIN\n"
          + "  FOR r IN SELECT * FROM pg_event_trigger_ddl_commands() LOOP\n"
          + "    CONTINUE WHEN r.in_extension OR r.schema_name IN " + ownSchemas() + " OR r.schema_name LIKE 'pg\\_%';\n"
          + "    prev := NULL;\n"
          + "    IF r.object_type IN ('table', 'view', 'materialized view', 'foreign table') THEN\n"
          + "      SELECT identity INTO prev FROM " + SCHEMA + ".known_relations WHERE objid = r.objid::int8;\n"
          + "      IF prev = r.object_identity THEN prev := NULL; END IF;\n"
          + "      INSERT INTO " + SCHEMA + ".known_relations VALUES (r.objid::int8, r.object_identity)\n"
          + "        ON CONFLICT (objid) DO UPDATE SET identity = EXCLUDED.identity;\n"
          + "    END IF;\n"
          + "    INSERT INTO " + LOG_TABLE + " (phase, command_tag, object_type, schema_name, object_identity, objid, previous_identity, statement)\n"
          + "      VALUES ('ddl_command_end', r.command_tag, r.object_type, r.schema_name, r.object_identity, r.objid::int8, prev, current_query());\n"
          + "  END LOOP;\n"
          + "END $fn$");
      s.execute("CREATE OR REPLACE FUNCTION " + SCHEMA + ".log_drop() RETURNS event_trigger LANGUAGE plpgsql AS $fn$\n"
          + "DECLARE r record;\n"
          + "BEGIN\n"
          + "  FOR r IN SELECT * FROM pg_event_trigger_dropped_objects() LOOP\n"
          + "    CONTINUE WHEN r.is_temporary OR r.schema_name IN " + ownSchemas() + " OR r.schema_name LIKE 'pg\\_%';\n"
          + "    IF r.object_type IN ('table', 'view', 'materialized view', 'foreign table') THEN\n"
          + "      DELETE FROM " + SCHEMA + ".known_relations WHERE objid = r.objid::int8;\n"
          + "    END IF;\n"
          + "    INSERT INTO " + LOG_TABLE + " (phase, command_tag, object_type, schema_name, object_identity, objid, statement)\n"
          + "      VALUES ('sql_drop', tg_tag, r.object_type, r.schema_name, r.object_identity, r.objid::int8, current_query());\n"
          + "  END LOOP;\n"
          + "END $fn$");
      if (!exists(c, "SELECT 1 FROM pg_event_trigger WHERE evtname = ?", DDL_TRIGGER)) {
        s.execute("CREATE EVENT TRIGGER " + DDL_TRIGGER + " ON ddl_command_end EXECUTE FUNCTION " + SCHEMA + ".log_ddl()");
      }
      if (!exists(c, "SELECT 1 FROM pg_event_trigger WHERE evtname = ?", DROP_TRIGGER)) {
        s.execute("CREATE EVENT TRIGGER " + DROP_TRIGGER + " ON sql_drop EXECUTE FUNCTION " + SCHEMA + ".log_drop()");
      }
      if (!exists(c, "SELECT 1 FROM pg_publication WHERE pubname = ?", publication)) {
        s.execute("CREATE PUBLICATION " + quoteIdent(publication) + " FOR TABLE " + LOG_TABLE);
      }
      c.commit();
    }
  }

  /** What of the installation is missing; empty = installed. */
  List<String> missing(Connection c) throws SQLException {
    List<String> missing = new ArrayList<>();
    if (!exists(c, "SELECT 1 FROM pg_class WHERE oid = to_regclass(?)", LOG_TABLE)) {
      missing.add("table " + LOG_TABLE);
    }
    if (!exists(c, "SELECT 1 FROM pg_class WHERE oid = to_regclass(?)", SCHEMA + ".ingest_state")) {
      missing.add("table " + SCHEMA + ".ingest_state");
    }
    for (String t : List.of(DDL_TRIGGER, DROP_TRIGGER)) {
      if (!exists(c, "SELECT 1 FROM pg_event_trigger WHERE evtname = ?", t)) {
        missing.add("event trigger " + t);
      }
    }
    if (!exists(c, "SELECT 1 FROM pg_publication WHERE pubname = ?", publication)) {
      missing.add("publication " + publication);
    }
    return missing;
  }

  record Privileges(String role, boolean superuser, boolean replication) {}

  static Privileges privileges(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT current_user, rolsuper, rolreplication FROM pg_roles WHERE rolname = current_user")) {
      rs.next();
      return new Privileges(rs.getString(1), rs.getBoolean(2), rs.getBoolean(3));
    }
  }

  /** Whether the first start's snapshot of every table was published for this database. */
  public boolean initialSnapshotDone(String databaseId) throws SQLException {
    try (Connection c = db.open()) {
      return exists(c, "SELECT 1 FROM " + SCHEMA + ".ingest_state WHERE database_id = ?", databaseId);
    }
  }

  public void markInitialSnapshotDone(String databaseId) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + SCHEMA
        + ".ingest_state (database_id, initial_snapshot_at) VALUES (?, now()) ON CONFLICT (database_id) DO NOTHING")) {
      ps.setString(1, databaseId);
      ps.executeUpdate();
    }
  }

  /** Forgets the first start's snapshot, so the next start publishes every table again (a source removed, then added back). */
  public void forgetInitialSnapshot(String databaseId) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement("DELETE FROM " + SCHEMA + ".ingest_state WHERE database_id = ?")) {
      ps.setString(1, databaseId);
      ps.executeUpdate();
    }
  }

  /** Whether the replication slot exists and a client streams from it. */
  public boolean slotActive(String slot) throws SQLException {
    try (Connection c = db.open()) {
      return exists(c, "SELECT 1 FROM pg_replication_slots WHERE slot_name = ? AND active", slot);
    }
  }

  /** Drops the replication slot (an inactive slot keeps WAL forever). */
  public void dropSlot(String slot) throws SQLException {
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
      ps.setString(1, slot);
      ps.execute();
    }
  }

  private static boolean exists(Connection c, String sql, String arg) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, arg);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  static String quoteIdent(String name) {
    if (!name.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("'" + name + "' is not a plain lower-case identifier (letters, digits, _)");
    }
    return name;
  }
}
