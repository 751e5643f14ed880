package dev.schemarag.core.sql;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Decides whether generated SQL may run at all. The text is first read as PostgreSQL reads it and
 * rewritten into one canonical form ({@link PgText}); then it must be exactly one SELECT (or WITH
 * whose every CTE is a SELECT), with no SELECT INTO and no FOR UPDATE/SHARE, reading only tables
 * of the context packet (in every sub-query, wherever it stands: {@link SyntaxSweep}) and calling
 * only allowed built-in functions ({@link BuiltinFunctions}). An accepted statement comes back
 * canonical and wrapped so that it returns at most {@code maxRows} rows. Any rejection, a parse
 * failure included, is a {@code validation_block}: never retried.
 */
public final class SqlGuard {

  /** Schemas whose tables never answer a question: PostgreSQL's catalogs. */
  static final Set<String> CATALOG_SCHEMAS = Set.of("pg_catalog", "information_schema", "pg_toast");
  /** First words of a statement that reads: anything else (SET, COPY, DO, CALL, EXPLAIN, …) is refused before parsing. */
  private static final Set<String> READING_STARTS = Set.of("SELECT", "WITH", "(");

  /** The guard's decision; {@code sql} is the canonical, capped statement to run when allowed. */
  public record Verdict(boolean allowed, String reason, String sql, List<String> tables) {
    static Verdict block(String reason) {
      return new Verdict(false, reason, null, List.of());
    }
  }

  private SqlGuard() {}

  /**
   * @param allowedTables the packet's tables (names as the model keys them; {@code public.} optional)
   * @param maxRows cap on returned rows
   */
  public static Verdict check(String sql, Collection<String> allowedTables, int maxRows) {
    Set<String> allowed = new HashSet<>();
    allowedTables.forEach(t -> allowed.add(normalize(t)));
    return check(sql, allowed::contains, maxRows);
  }

  /**
   * The tables a statement the guard would allow reads (as the model keys them: bare for {@code public},
   * CTE names left out), whatever the packet; empty when the guard would refuse it for any other reason.
   */
  public static List<String> tablesRead(String sql) {
    Verdict v = check(sql, key -> true, 1);
    return v.allowed() ? v.tables() : List.of();
  }

  private static Verdict check(String sql, Predicate<String> allowedKey, int maxRows) {
    if (sql == null || sql.isBlank()) {
      return Verdict.block("no SQL");
    }
    PgText.Canonical text;
    try {
      text = PgText.canonical(sql);
    } catch (PgText.Rejected e) {
      return Verdict.block(e.getMessage());
    }
    if (!READING_STARTS.contains(text.firstWord())) {
      return Verdict.block("only SELECT or WITH … SELECT is allowed, found " + text.firstWord());
    }
    Statements parsed;
    try {
      parsed = CCJSqlParserUtil.parseStatements(text.text());
    } catch (Exception | StackOverflowError e) {
      // jsqlparser fails on some PostgreSQL it cannot read, and on some it should not accept; either way nothing is verified.
      return Verdict.block("not parseable SQL, so it cannot be verified: " + firstLine(e));
    }
    List<Statement> statements = parsed == null ? List.of() : parsed;
    if (statements.size() != 1) {
      return Verdict.block("exactly one statement is allowed, found " + statements.size());
    }
    Statement st = statements.get(0);
    if (!(st instanceof Select)) {
      return Verdict.block("only SELECT or WITH … SELECT is allowed, found " + st.getClass().getSimpleName().toUpperCase(Locale.ROOT));
    }
    SyntaxSweep w;
    try {
      w = SyntaxSweep.of(st);
    } catch (RuntimeException | StackOverflowError e) {
      return Verdict.block("statement uses a construct the guard cannot inspect: " + e);
    }
    Set<String> lexed = new HashSet<>(text.strings());
    for (String s : w.strings) {
      if (!lexed.contains(s)) {
        return Verdict.block("the SQL parser and PostgreSQL read a string literal differently: " + abbreviate(s));
      }
    }
    if (!w.forbidden.isEmpty()) {
      return Verdict.block(w.forbidden.get(0) + " is not allowed");
    }
    Set<String> cteNames = new HashSet<>();
    for (WithItem<?> with : w.withItems) {
      if (!(with.getStatement() instanceof Select)) {
        return Verdict.block("CTE " + with.getAliasName() + " is not a SELECT (data-modifying CTE)");
      }
      cteNames.add(PgText.identifier(with.getAliasName()));
    }
    for (Select s : w.selects) {
      if (s.getForMode() != null || s.getForUpdate() != null || s.getForUpdateTable() != null
          || s.getForUpdateTables() != null && !s.getForUpdateTables().isEmpty()) {
        return Verdict.block("SELECT … FOR UPDATE/SHARE takes locks");
      }
      if (s instanceof PlainSelect ps) {
        if (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty() || ps.getIntoTempTable() != null) {
          return Verdict.block("SELECT INTO creates a table");
        }
        if (ps.getForMode() != null || ps.getForUpdateTable() != null) {
          return Verdict.block("SELECT … FOR UPDATE/SHARE takes locks");
        }
      }
    }
    Set<String> used = new LinkedHashSet<>();
    for (var t : w.tables) {
      List<String> parts = PgText.qualifiedName(t.getFullyQualifiedName());
      if (parts.size() == 1 && cteNames.contains(parts.get(0))) {
        continue;
      }
      Optional<String> refused = tableRefusal(parts, allowedKey);
      if (refused.isPresent()) {
        return Verdict.block(refused.get());
      }
      used.add(key(parts));
    }
    for (String f : w.functions) {
      Optional<String> refused = BuiltinFunctions.refusal(PgText.qualifiedName(f));
      if (refused.isPresent()) {
        return Verdict.block(refused.get());
      }
    }
    return new Verdict(true, "ok", capped(text.text(), maxRows), List.copyOf(used));
  }

  /**
   * Why the text is no reading statement at all (SET, COPY, DO, CALL, …), or empty when it starts
   * like one or cannot be read far enough to tell. Asked before lint: such a statement is refused as
   * {@code validation_block}, not sent back for repair.
   */
  public static Optional<String> notReading(String sql) {
    if (sql == null || sql.isBlank()) {
      return Optional.empty();
    }
    try {
      String first = PgText.canonical(sql).firstWord();
      return READING_STARTS.contains(first) ? Optional.empty() : Optional.of("only SELECT or WITH … SELECT is allowed, found " + first);
    } catch (PgText.Rejected e) {
      return Optional.empty(); // lint names what is wrong with the text, and the guard refuses it after repair
    }
  }

  /** Why reading this relation is refused, or empty when the packet holds it. */
  static Optional<String> tableRefusal(List<String> parts, Predicate<String> allowedKey) {
    String shown = String.join(".", parts);
    if (parts.size() > 2) {
      return Optional.of("table " + shown + " names another database");
    }
    boolean catalog = parts.size() == 2 ? CATALOG_SCHEMAS.contains(parts.get(0)) : parts.get(0).startsWith("pg_");
    if (catalog) {
      return Optional.of("table " + shown + " is a catalog table: not in the context packet");
    }
    if (!allowedKey.test(key(parts).toLowerCase(Locale.ROOT))) {
      return Optional.of("table " + shown + " is not in the context packet");
    }
    return Optional.empty();
  }

  /** A resolved name as the model keys it: bare for {@code public}, else {@code schema.table}. */
  static String key(List<String> parts) {
    if (parts.size() == 2 && !parts.get(0).equals("public")) {
      return parts.get(0) + "." + parts.get(1);
    }
    return parts.get(parts.size() - 1);
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

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "…" : s;
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
    int nl = m.indexOf('\n');
    return nl > 0 ? m.substring(0, nl) : m;
  }
}
