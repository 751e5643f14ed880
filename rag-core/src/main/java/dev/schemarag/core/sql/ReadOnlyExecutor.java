package dev.schemarag.core.sql;

import dev.schemarag.core.store.ConnectionSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs guarded SQL: EXPLAIN first, then the query, both inside a READ ONLY transaction with a
 * statement timeout, on connections of the read-only role. Failures come back classified by
 * SQLSTATE, never thrown.
 */
public final class ReadOnlyExecutor {

  private final ConnectionSource reader;
  private final int timeoutMs;

  public ReadOnlyExecutor(ConnectionSource reader, int timeoutMs) {
    this.reader = reader;
    this.timeoutMs = timeoutMs;
  }

  /** Rows of an answer: column names, up to {@code previewRows} rows as text, and the row count. */
  public record Rows(List<String> columns, List<List<String>> preview, long rowCount) {}

  /** What happened: the EXPLAIN plan's first line, rows on success, or the classified failure. */
  public record Outcome(String stage, Optional<String> plan, Optional<Rows> rows, Optional<ErrorClass> error,
                        Optional<String> sqlState, Optional<String> message) {
    public boolean ok() {
      return error.isEmpty();
    }
  }

  public Outcome run(String sql, int maxRows, int previewRows) {
    String stage = "explain";
    try (Connection c = reader.open()) {
      c.setAutoCommit(false);
      c.setReadOnly(true);
      try (Statement s = c.createStatement()) {
        s.execute("SET TRANSACTION READ ONLY");
        s.execute("SET LOCAL statement_timeout = " + Math.max(1, timeoutMs));
        String plan;
        try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
          plan = rs.next() ? rs.getString(1) : "";
        }
        stage = "execute";
        s.setMaxRows(maxRows);
        List<String> columns = new ArrayList<>();
        List<List<String>> preview = new ArrayList<>();
        long count = 0;
        try (ResultSet rs = s.executeQuery(sql)) {
          ResultSetMetaData md = rs.getMetaData();
          for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(md.getColumnLabel(i));
          }
          while (rs.next()) {
            count++;
            if (preview.size() < previewRows) {
              List<String> row = new ArrayList<>(columns.size());
              for (int i = 1; i <= columns.size(); i++) {
                row.add(rs.getString(i));
              }
              preview.add(row);
            }
          }
        }
        c.rollback(); // nothing to keep: a read-only transaction ends either way
        return new Outcome(stage, Optional.of(plan), Optional.of(new Rows(columns, preview, count)), Optional.empty(),
            Optional.empty(), Optional.empty());
      }
    } catch (SQLException e) {
      String state = e.getSQLState();
      return new Outcome(stage, Optional.empty(), Optional.empty(), Optional.of(state == null ? ErrorClass.INFRA_FAILURE
          : ErrorClass.ofSqlState(state)), Optional.ofNullable(state), Optional.ofNullable(e.getMessage()));
    }
  }
}
