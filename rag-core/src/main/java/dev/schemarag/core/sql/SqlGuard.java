package dev.schemarag.core.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Decides whether generated SQL may run at all: exactly one statement, a SELECT (or WITH whose
 * every CTE is a SELECT), no SELECT INTO, no FOR UPDATE/SHARE, only tables of the context packet,
 * no side-effecting or dangerous function. An accepted statement comes back wrapped so that it
 * returns at most {@code maxRows} rows. A rejection is a {@code validation_block}: never retried.
 */
public final class SqlGuard {

  /** Functions that write, wait, reach outside the database or run SQL of their own. */
  static final Set<String> DENIED = Set.of(
      "pg_sleep", "pg_sleep_for", "pg_sleep_until", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf",
      "pg_rotate_logfile", "set_config", "nextval", "setval", "pg_notify", "pg_switch_wal", "pg_promote",
      "pg_logical_emit_message", "pg_log_backend_memory_contexts", "pg_import_system_collations",
      "query_to_xml", "query_to_xml_and_xmlschema", "query_to_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
      "table_to_xml", "table_to_xml_and_xmlschema", "schema_to_xml", "database_to_xml", "pg_current_xact_id",
      "txid_current", "pg_create_restore_point", "pg_backup_start", "pg_backup_stop");
  /** Whole families: large objects, dblink, advisory locks, server files, replication, stats resets. */
  static final List<String> DENIED_PREFIXES = List.of(
      "lo_", "dblink", "pg_advisory", "pg_try_advisory", "pg_read_", "pg_ls_", "pg_stat_file", "pg_file_",
      "pg_replication_", "pg_create_", "pg_drop_", "pg_stat_reset", "pg_copy_");

  /**
   * The guard's decision.
   *
   * @param unparseable the SQL could not be parsed: nothing can be verified, but nothing ran either,
   *     so a repaired statement may be tried (unlike any other rejection)
   */
  public record Verdict(boolean allowed, String reason, String sql, List<String> tables, boolean unparseable) {
    static Verdict block(String reason) {
      return new Verdict(false, reason, null, List.of(), false);
    }
  }

  private SqlGuard() {}

  /**
   * @param allowedTables the packet's tables (names as the model keys them; {@code public.} optional)
   * @param maxRows cap on returned rows
   */
  public static Verdict check(String sql, Collection<String> allowedTables, int maxRows) {
    if (sql == null || sql.isBlank()) {
      return Verdict.block("no SQL");
    }
    Statements parsed;
    try {
      parsed = CCJSqlParserUtil.parseStatements(sql);
    } catch (JSQLParserException e) {
      return new Verdict(false, "not parseable SQL: " + firstLine(e), null, List.of(), true);
    }
    List<Statement> statements = parsed == null ? List.of() : parsed;
    if (statements.size() != 1) {
      return Verdict.block("exactly one statement is allowed, found " + statements.size());
    }
    Statement st = statements.get(0);
    if (!(st instanceof Select select)) {
      return Verdict.block("only SELECT or WITH … SELECT is allowed, found " + st.getClass().getSimpleName().toUpperCase(Locale.ROOT));
    }
    StatementWalker w;
    try {
      w = StatementWalker.walk(select);
    } catch (UnsupportedOperationException e) {
      return Verdict.block("statement uses a construct the guard cannot inspect: " + e.getMessage());
    }
    for (WithItem<?> with : w.withItems) {
      if (!(with.getStatement() instanceof Select)) {
        return Verdict.block("CTE " + with.getAliasName() + " is not a SELECT (data-modifying CTE)");
      }
    }
    if (select.getWithItemsList() != null) {
      for (WithItem<?> with : select.getWithItemsList()) {
        if (!(with.getStatement() instanceof Select)) {
          return Verdict.block("CTE " + with.getAliasName() + " is not a SELECT (data-modifying CTE)");
        }
      }
    }
    for (PlainSelect ps : w.plainSelects) {
      if (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty() || ps.getIntoTempTable() != null) {
        return Verdict.block("SELECT INTO creates a table");
      }
      if (ps.getForMode() != null || ps.getForUpdateTable() != null) {
        return Verdict.block("SELECT … FOR UPDATE/SHARE takes locks");
      }
    }
    if (select.getForMode() != null) {
      return Verdict.block("SELECT … FOR UPDATE/SHARE takes locks");
    }
    for (String f : w.functions) {
      Optional<String> denied = deniedFunction(f);
      if (denied.isPresent()) {
        return Verdict.block("function " + denied.get() + " is not allowed");
      }
    }
    Set<String> allowed = new HashSet<>();
    allowedTables.forEach(t -> allowed.add(normalize(t)));
    List<String> used = new ArrayList<>();
    for (String t : w.tables) {
      String n = normalize(t);
      if (!allowed.contains(n)) {
        return Verdict.block("table " + t + " is not in the context packet");
      }
      used.add(n);
    }
    return new Verdict(true, "ok", capped(sql, maxRows), List.copyOf(new java.util.LinkedHashSet<>(used)), false);
  }

  static Optional<String> deniedFunction(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    int dot = n.lastIndexOf('.');
    String bare = dot >= 0 ? n.substring(dot + 1) : n;
    bare = bare.replace("\"", "");
    if (DENIED.contains(bare) || DENIED_PREFIXES.stream().anyMatch(bare::startsWith)) {
      return Optional.of(bare);
    }
    return Optional.empty();
  }

  /** Lower case, quotes removed, {@code public.} dropped: the model's key for a table. */
  static String normalize(String table) {
    String n = table.replace("\"", "").toLowerCase(Locale.ROOT);
    return n.startsWith("public.") ? n.substring("public.".length()) : n;
  }

  /** {@code SELECT * FROM (q) AS _q LIMIT n}: a LIMIT inside a UNION binds to its last branch only. */
  static String capped(String sql, int maxRows) {
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    return "SELECT * FROM (\n" + body + "\n) AS _q LIMIT " + Math.max(1, maxRows);
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
    int nl = m.indexOf('\n');
    return nl > 0 ? m.substring(0, nl) : m;
  }
}
