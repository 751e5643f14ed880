package dev.schemarag.gateway;

import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Answers, grounding packets and failures as the JSON the HTTP API and the MCP tools return. */
final class OutcomeJson {
  private OutcomeJson() {}

  static Map<String, Object> answer(QueryAnswered a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("query_id", a.getQueryId());
    m.put("status", "answered");
    m.put("database_id", a.getDatabaseId());
    m.put("question", a.getQuestion());
    m.put("sql", a.getSql());
    m.put("sql_source", a.getSqlSource());
    m.put("tables", strings(a.getTables()));
    m.put("columns", strings(a.getColumnNames()));
    List<List<String>> rows = new ArrayList<>();
    a.getRowsPreview().forEach(r -> rows.add(strings(r)));
    m.put("rows", rows);
    m.put("row_count", a.getRowCount());
    m.put("truncated", a.getTruncated());
    m.put("note", a.getNote());
    m.put("attempts", a.getAttempts());
    m.put("timings_ms", stringKeys(a.getTimingsMs()));
    m.put("requested_by", a.getRequestedBy());
    m.put("run_as_role", a.getRunAsRole());
    return m;
  }

  static Map<String, Object> grounding(QueryAnswered a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("query_id", a.getQueryId());
    m.put("database_id", a.getDatabaseId());
    m.put("question", a.getQuestion());
    m.put("tables", strings(a.getTables()));
    m.put("context", a.getContextPacket() == null ? "" : a.getContextPacket());
    m.put("retrieval_metrics", stringKeys(a.getRetrievalMetrics()));
    return m;
  }

  static Map<String, Object> failure(QueryFailed f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("query_id", f.getQueryId());
    m.put("status", "failed");
    m.put("database_id", f.getDatabaseId());
    m.put("question", f.getQuestion());
    m.put("error_class", f.getErrorClass());
    m.put("stage", f.getStage());
    m.put("message", f.getMessage());
    m.put("sqlstate", f.getSqlstate());
    m.put("attempts", f.getAttempts());
    m.put("last_sql", f.getLastSql());
    m.put("requested_by", f.getRequestedBy());
    m.put("run_as_role", f.getRunAsRole());
    return m;
  }

  /**
   * A failed question as a problem: 404 for an unknown database, 403 for a principal the access
   * policy does not know, else 422 with the classified failure.
   */
  static Problem failureProblem(QueryFailed f) {
    boolean unknownDb = "unknown_database".equals(f.getErrorClass());
    boolean unknownPrincipal = "unknown_principal".equals(f.getErrorClass());
    Problem p = Problem.of(unknownDb ? 404 : unknownPrincipal ? 403 : 422, f.getErrorClass(),
        unknownDb ? "Unknown database" : unknownPrincipal ? "Unknown principal" : "Question not answered",
        f.getErrorClass() + " at " + f.getStage() + ": " + f.getMessage());
    for (Map.Entry<String, Object> e : failure(f).entrySet()) {
      p = p.with(e.getKey(), e.getValue());
    }
    return p;
  }

  static List<String> strings(List<? extends CharSequence> l) {
    return l.stream().map(x -> x == null ? null : x.toString()).toList();
  }

  private static Map<String, Long> stringKeys(Map<? extends CharSequence, Long> m) {
    Map<String, Long> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(k.toString(), v));
    return out;
  }

  /** Rows as a small aligned text table, for a model to read. */
  static String table(List<String> columns, List<List<String>> rows) {
    if (columns.isEmpty()) {
      return "";
    }
    int[] w = new int[columns.size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = columns.get(i).length();
      for (List<String> r : rows) {
        w[i] = Math.max(w[i], i < r.size() && r.get(i) != null ? r.get(i).length() : 4);
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, columns, w);
    for (int i = 0; i < w.length; i++) {
      sb.append(i == 0 ? "" : "-+-").append("-".repeat(w[i]));
    }
    sb.append('\n');
    rows.forEach(r -> line(sb, r, w));
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells, int[] w) {
    for (int i = 0; i < w.length; i++) {
      String c = i < cells.size() ? (cells.get(i) == null ? "NULL" : cells.get(i)) : "";
      sb.append(i == 0 ? "" : " | ").append(c).append(" ".repeat(w[i] - c.length()));
    }
    sb.append('\n');
  }
}
