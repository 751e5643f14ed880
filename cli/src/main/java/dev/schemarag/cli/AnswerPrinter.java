package dev.schemarag.cli;

import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Prints an answer (SQL and a result table) or a classified failure for people. */
final class AnswerPrinter {
  private AnswerPrinter() {}

  static final int MAX_WIDTH = 40;

  static void print(QuestionClient.Outcome o, PrintStream out) {
    o.answered().ifPresent(a -> answered(a, o.roundTripMs(), out));
    o.failed().ifPresent(f -> failed(f, o.roundTripMs(), out));
    // Who the access policy decided the asker is, and the database role the question ran under.
    String role = o.answered().map(QueryAnswered::getRunAsRole).or(() -> o.failed().map(QueryFailed::getRunAsRole)).orElse(null);
    if (role != null) {
      String who = o.answered().map(QueryAnswered::getRequestedBy).or(() -> o.failed().map(QueryFailed::getRequestedBy)).orElse("?");
      out.println("asked as " + who + ", run as database role " + role);
    }
  }

  private static void answered(QueryAnswered a, long ms, PrintStream out) {
    if (a.getSql() == null) {
      out.println("grounding only: the schema context for this question (" + a.getTables().size() + " tables)");
      if (a.getNote() != null) {
        out.println("note: " + a.getNote());
      }
      out.println(indent(String.valueOf(a.getContextPacket())));
      out.printf("(%d ms)%n", ms);
      return;
    }
    out.println("SQL (" + a.getSqlSource() + ", " + a.getAttempts() + (a.getAttempts() == 1 ? " attempt" : " attempts") + "):");
    out.println(indent(a.getSql()));
    if (a.getNote() != null) {
      out.println("note: " + a.getNote());
    }
    if (!a.getColumnNames().isEmpty()) {
      out.print(table(a.getColumnNames(), a.getRowsPreview()));
      out.println(rowSummary(a.getRowCount(), a.getRowsPreview().size(), a.getTruncated(), ms));
    } else {
      out.printf("(not executed; %d ms)%n", ms);
    }
  }

  /**
   * {@code (1000 rows, 20 shown; 12 ms)}: the answer carries the rows that fit its row and byte
   * limits, and says when it cut a long value even though every row is there.
   */
  static String rowSummary(long rowCount, int shown, boolean truncated, long ms) {
    String rows = rowCount + (rowCount == 1 ? " row" : " rows");
    if (shown < rowCount) {
      rows += ", " + shown + " shown";
    } else if (truncated) {
      rows += ", long values cut";
    }
    return "(" + rows + "; " + ms + " ms)";
  }

  private static void failed(QueryFailed f, long ms, PrintStream out) {
    out.printf("failed: %s at %s%s%n", f.getErrorClass(), f.getStage(), f.getSqlstate() == null ? "" : " (SQLSTATE " + f.getSqlstate() + ")");
    out.println("  " + f.getMessage());
    if (f.getLastSql() != null) {
      out.println("last SQL:");
      out.println(indent(f.getLastSql()));
    }
    if (f.getContextPacket() != null) {
      // The table names only: the whole packet is in the event (--json).
      List<String> tables = f.getContextPacket().lines().filter(l -> !l.startsWith("--") && l.contains(" ("))
          .map(l -> l.substring(0, l.indexOf(" ("))).toList();
      if (!tables.isEmpty()) {
        out.println("schema context it had (" + tables.size() + " tables): " + String.join(", ", tables));
      }
    }
    out.printf("(%d %s; %d ms)%n", f.getAttempts(), f.getAttempts() == 1 ? "attempt" : "attempts", ms);
  }

  private static String indent(String text) {
    return "  " + text.strip().replace("\n", "\n  ");
  }

  /** A plain text table: a header, a rule, the rows; cells cut at {@link #MAX_WIDTH} characters. */
  static String table(List<String> columns, List<List<String>> rows) {
    int[] width = new int[columns.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = Math.min(MAX_WIDTH, columns.get(i).length());
      for (List<String> r : rows) {
        width[i] = Math.min(MAX_WIDTH, Math.max(width[i], cell(r, i).length()));
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, columns, width);
    List<String> rule = new ArrayList<>();
    for (int w : width) {
      rule.add("-".repeat(w));
    }
    sb.append(' ').append(String.join("-+-", rule)).append('\n');
    rows.forEach(r -> line(sb, r, width));
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells, int[] width) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < width.length; i++) {
      String c = cell(cells, i);
      c = c.length() > width[i] ? c.substring(0, width[i] - 1) + "…" : c;
      out.add(String.format("%-" + Math.max(1, width[i]) + "s", c));
    }
    sb.append(' ').append(String.join(" | ", out).stripTrailing()).append('\n');
  }

  private static String cell(List<String> row, int i) {
    return i < row.size() && row.get(i) != null ? row.get(i) : (i < row.size() ? "NULL" : "");
  }
}
