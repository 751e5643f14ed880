package dev.schemarag.core.sql;

import dev.schemarag.core.store.ConnectionSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs guarded SQL on connections of the read-only role, inside a READ ONLY transaction with a
 * statement timeout: {@code EXPLAIN (VERBOSE, FORMAT JSON)} first, whose plan must read only the
 * packet's relations ({@link PlanCheck}), then the query. Every connection is reset before it goes
 * back to its pool ({@code DISCARD ALL}, advisory locks released), so nothing one question did to
 * its session is there for the next. Failures come back classified, never thrown.
 */
public final class ReadOnlyExecutor {

  private final ConnectionSource reader;
  private final int timeoutMs;
  /** The role each statement runs as (SET LOCAL ROLE), when a principal's policy names one. */
  private final Optional<String> role;
  /** Rewrites database messages before anyone reads them: (message, the statement's SQL) to text. */
  private final java.util.function.BinaryOperator<String> redact;
  private final RowBudget.Limits limits;

  /** With the default answer size limits ({@code answer.max.bytes}, {@code answer.max.value.bytes}). */
  public ReadOnlyExecutor(ConnectionSource reader, int timeoutMs) {
    this(reader, timeoutMs, RowBudget.Limits.DEFAULT);
  }

  public ReadOnlyExecutor(ConnectionSource reader, int timeoutMs, RowBudget.Limits limits) {
    this(reader, timeoutMs, limits, Optional.empty(), (message, sql) -> message);
  }

  private ReadOnlyExecutor(ConnectionSource reader, int timeoutMs, RowBudget.Limits limits, Optional<String> role,
                           java.util.function.BinaryOperator<String> redact) {
    this.reader = reader;
    this.timeoutMs = timeoutMs;
    this.limits = limits;
    this.role = role;
    this.redact = redact;
  }

  /**
   * This executor running every statement as {@code role} inside its read-only transaction, so
   * that the role's grants and row-level security decide what comes back; database messages pass
   * through {@code redact} (message, SQL) first, as they may name columns the role cannot read.
   */
  public ReadOnlyExecutor as(String role, java.util.function.BinaryOperator<String> redact) {
    if (!role.matches("[a-z_][a-z0-9_$]{0,62}")) {
      throw new IllegalArgumentException("role name must be a lower-case SQL identifier, not '" + role + "'");
    }
    return new ReadOnlyExecutor(reader, timeoutMs, limits, Optional.of(role), redact);
  }

  /** The role statements run as, if not the connection's own. */
  public Optional<String> role() {
    return role;
  }

  /**
   * Rows of an answer: column names, the rows it carries as text (within the preview rows and the
   * byte budget, long values cut), and the row count of the whole result up to the row cap.
   *
   * @param truncated whether a row was left out or a value cut
   */
  public record Rows(List<String> columns, List<List<String>> preview, long rowCount, boolean truncated) {}

  /**
   * What happened: the plan's top line, rows on success, or the classified failure.
   *
   * @param stage explain, plan (the plan check refused), execute
   */
  public record Outcome(String stage, Optional<String> plan, Optional<Rows> rows, Optional<ErrorClass> error,
                        Optional<String> sqlState, Optional<String> message) {
    public boolean ok() {
      return error.isEmpty();
    }

    static Outcome refused(String stage, Optional<String> plan, String why) {
      return new Outcome(stage, plan, Optional.empty(), Optional.of(ErrorClass.VALIDATION_BLOCK), Optional.empty(), Optional.of(why));
    }
  }

  /**
   * @param allowedTables the relations the statement may read (the packet's tables, as the guard was given them)
   */
  public Outcome run(String sql, Collection<String> allowedTables, int maxRows, int previewRows) {
    String stage = "explain";
    Optional<String> summary = Optional.empty();
    try (Connection c = reader.open()) {
      try {
        c.setAutoCommit(false);
        c.setReadOnly(true);
        try (Statement s = c.createStatement()) {
          s.setEscapeProcessing(false); // the driver must not rewrite {fn …} escapes: the guard checked the text as it is
          s.execute("SET TRANSACTION READ ONLY");
          if (role.isPresent()) {
            // LOCAL: ends with the transaction; DISCARD ALL in reset() would undo it anyway.
            s.execute("SET LOCAL ROLE " + role.get());
          }
          s.execute("SET LOCAL statement_timeout = " + Math.max(1, timeoutMs));
          s.execute("SET LOCAL standard_conforming_strings = on"); // backslashes in strings are plain, as the guard read them
          PlanCheck plan;
          try (ResultSet rs = s.executeQuery("EXPLAIN (VERBOSE, FORMAT JSON) " + sql)) {
            plan = PlanCheck.parse(rs.next() ? rs.getString(1) : "");
          }
          summary = Optional.of(redact.apply(plan.summary(), sql));
          stage = "plan";
          Optional<String> refused = plan.refusal(allowedTables);
          if (refused.isPresent()) {
            // A packet view is planned as the tables it reads, and a packet table as the tables its row-level
            // policies read (the database's rules, not the statement's choice): those are allowed too.
            refused = plan.refusal(plannedBases(c, allowedTables));
          }
          if (refused.isPresent()) {
            return Outcome.refused(stage, summary, redact.apply(refused.get(), sql));
          }
          stage = "execute";
          s.setMaxRows(maxRows);
          // Autocommit is off (a transaction is open), so the driver streams: one fetch at a time, sized by
          // the widest row seen, holds the rows; only what the answer carries is kept.
          s.setFetchSize(RowBudget.fetchRows(0));
          List<String> columns = new ArrayList<>();
          RowBudget budget = new RowBudget(previewRows, limits);
          long count = 0;
          long widest = 0;
          // Each fetch of a streamed result is its own statement to PostgreSQL's statement_timeout: the whole read is bounded here.
          long deadline = System.nanoTime() + Math.max(1, timeoutMs) * 1_000_000L;
          try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
              columns.add(md.getColumnLabel(i));
            }
            List<String> row = new ArrayList<>(columns.size());
            while (rs.next()) {
              count++;
              row.clear();
              long width = 0;
              for (int i = 1; i <= columns.size(); i++) {
                String v = rs.getString(i);
                width += RowBudget.size(v);
                row.add(v);
              }
              budget.offer(row); // once full, a row offered only marks the answer truncated
              if (width > widest) {
                widest = width;
                rs.setFetchSize(RowBudget.fetchRows(widest));
              }
              if (System.nanoTime() > deadline) {
                return new Outcome(stage, summary, Optional.empty(), Optional.of(ErrorClass.QUERY_TIMEOUT), Optional.empty(),
                    Optional.of("reading the rows took longer than the statement timeout of " + timeoutMs + " ms (" + count
                        + " rows read)"));
              }
            }
          }
          return new Outcome(stage, summary, Optional.of(new Rows(columns, List.copyOf(budget.rows()), count, budget.truncated())),
              Optional.empty(), Optional.empty(), Optional.empty());
        }
      } finally {
        reset(c);
      }
    } catch (SQLException e) {
      String state = e.getSQLState();
      return new Outcome(stage, summary, Optional.empty(), Optional.of(state == null ? ErrorClass.INFRA_FAILURE
          : ErrorClass.ofSqlState(state)), Optional.ofNullable(state), Optional.ofNullable(e.getMessage()).map(m -> redact.apply(m, sql)));
    } catch (IllegalArgumentException e) {
      return Outcome.refused(stage, summary, redact.apply(e.getMessage(), sql));
    }
  }

  /**
   * Ends the transaction and clears everything a statement could have left on the session
   * (settings, prepared statements, cursors, temporary tables, LISTEN, advisory locks) before the
   * connection goes back to its pool. A connection that cannot be reset is closed for good.
   */
  static void reset(Connection c) {
    try {
      c.rollback(); // nothing to keep: a read-only transaction ends either way
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_unlock_all()");
        s.execute("DISCARD ALL"); // outside a transaction block, as PostgreSQL requires
      }
    } catch (SQLException e) {
      try {
        c.abort(Runnable::run); // never hand a session in an unknown state to the next question
      } catch (SQLException ignored) {
        // already gone: the pool drops it
      }
    }
  }

  /** The relations that the packet's views read, recursively through views on views, as {@code schema.name}. */
  /** The packet's tables with what PostgreSQL plans into a read of them: view bases and row-level policy reads, to a fixed point. */
  static Set<String> plannedBases(Connection c, Collection<String> allowedTables) throws SQLException {
    Set<String> all = new HashSet<>();
    allowedTables.forEach(t -> all.add(SqlGuard.normalize(t)));
    for (int round = 0; round < 8; round++) {
      Set<String> more = new HashSet<>(viewBases(c, all));
      more.addAll(policyReads(c, all));
      if (!all.addAll(more.stream().map(SqlGuard::normalize).toList())) {
        break;
      }
    }
    return all;
  }

  /** The relations the row-level security policies of these tables read (pg_depend records a policy's expressions). */
  static Set<String> policyReads(Connection c, Collection<String> tables) throws SQLException {
    List<String> qualified = tables.stream().map(SqlGuard::normalize).map(t -> t.contains(".") ? t : "public." + t).toList();
    Set<String> out = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement("""
        SELECT n.nspname, r.relname FROM pg_policy p
          JOIN pg_class t ON t.oid = p.polrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace
          JOIN pg_depend d ON d.classid = 'pg_policy'::regclass AND d.objid = p.oid
           AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> p.polrelid
          JOIN pg_class r ON r.oid = d.refobjid JOIN pg_namespace n ON n.oid = r.relnamespace
         WHERE lower(tn.nspname || '.' || t.relname) = ANY (?)""")) {
      ps.setArray(1, c.createArrayOf("text", qualified.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1) + "." + rs.getString(2));
        }
      }
    }
    return out;
  }

  static Set<String> viewBases(Connection c, Collection<String> allowedTables) throws SQLException {
    List<String> qualified = allowedTables.stream().map(SqlGuard::normalize).map(t -> t.contains(".") ? t : "public." + t).toList();
    Set<String> out = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement("""
        WITH RECURSIVE v(oid) AS (
          SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind = 'v' AND lower(n.nspname || '.' || c.relname) = ANY (?)
          UNION
          SELECT d.refobjid FROM v JOIN pg_rewrite r ON r.ev_class = v.oid
            JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
             AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> v.oid)
        SELECT n.nspname, c.relname FROM v JOIN pg_class c ON c.oid = v.oid JOIN pg_namespace n ON n.oid = c.relnamespace""")) {
      ps.setArray(1, c.createArrayOf("text", qualified.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1) + "." + rs.getString(2));
        }
      }
    }
    return out;
  }
}
