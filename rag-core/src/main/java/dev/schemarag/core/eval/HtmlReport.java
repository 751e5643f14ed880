package dev.schemarag.core.eval;

import java.util.List;
import java.util.Locale;

/** A self-contained HTML page (inline SVG, no scripts): the recall@k curve and the latency histogram. */
public final class HtmlReport {
  private HtmlReport() {}

  public static String render(String title, RetrievalMetrics m, double chunksPerSecond) {
    StringBuilder h = new StringBuilder();
    h.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>").append(esc(title)).append("</title>")
        .append("<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}")
        .append("td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}th{background:#f3f3f3}")
        .append("svg{background:#fafafa;border:1px solid #ddd;margin:1em 0}</style></head><body>");
    h.append("<h1>").append(esc(title)).append("</h1>");
    h.append("<table><tr><th>metric</th><th>value</th></tr>");
    row(h, "questions", Integer.toString(m.questions()));
    for (int k : RetrievalMetrics.KS) {
      row(h, "table recall@" + k, f(m.recallAt(k)));
    }
    row(h, "MRR", f(m.mrr()));
    row(h, "packet table recall", f(m.packetRecall()));
    row(h, "packet table precision", f(m.packetPrecision()));
    row(h, "packet table F1", f(m.packetF1()));
    row(h, "all gold tables in packet", f(m.allGoldRate()));
    row(h, "tables per packet", f(m.avgPacketTables()));
    row(h, "gold columns in packet", f(m.columnRecallInPacket()));
    row(h, "packet tokens / full schema tokens", String.format(Locale.ROOT, "%.0f / %.0f", m.avgPacketTokens(), m.avgSchemaTokens()));
    row(h, "latency p50 / p95 / p99 (ms)", String.format(Locale.ROOT, "%.1f / %.1f / %.1f",
        m.latencyPercentile(50), m.latencyPercentile(95), m.latencyPercentile(99)));
    row(h, "indexing (chunks/s)", String.format(Locale.ROOT, "%.1f", chunksPerSecond));
    h.append("</table>");
    h.append("<h2>Table recall@k</h2>").append(recallCurve(m));
    h.append("<h2>Retrieval latency (ms)</h2>").append(histogram(m.latenciesMs()));
    h.append("</body></html>\n");
    return h.toString();
  }

  private static String recallCurve(RetrievalMetrics m) {
    int w = 560;
    int ht = 300;
    int pad = 40;
    StringBuilder s = new StringBuilder("<svg width=\"" + w + "\" height=\"" + ht + "\" xmlns=\"http://www.w3.org/2000/svg\">");
    s.append(axis(w, ht, pad));
    StringBuilder pts = new StringBuilder();
    for (int k : RetrievalMetrics.KS) {
      double x = pad + (w - 2.0 * pad) * (k - 1) / 19.0;
      double y = ht - pad - (ht - 2.0 * pad) * m.recallAt(k);
      pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#2a6\"/>", x, y));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%.3f</text>", x, y - 8, m.recallAt(k)));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>", x, ht - pad + 15, k));
    }
    s.append("<polyline fill=\"none\" stroke=\"#2a6\" stroke-width=\"2\" points=\"").append(pts).append("\"/>");
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">k</text>", w / 2, ht - 5));
    s.append("</svg>");
    return s.toString();
  }

  private static String histogram(List<Double> values) {
    int w = 560;
    int ht = 300;
    int pad = 40;
    if (values.isEmpty()) {
      return "<p>no latencies</p>";
    }
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(1);
    int bins = 30;
    double width = Math.max(max / bins, 1e-9);
    int[] counts = new int[bins];
    for (double v : values) {
      counts[Math.min(bins - 1, (int) (v / width))]++;
    }
    int top = 1;
    for (int c : counts) {
      top = Math.max(top, c);
    }
    StringBuilder s = new StringBuilder("<svg width=\"" + w + "\" height=\"" + ht + "\" xmlns=\"http://www.w3.org/2000/svg\">");
    s.append(axis(w, ht, pad));
    double bw = (w - 2.0 * pad) / bins;
    for (int i = 0; i < bins; i++) {
      double bh = (ht - 2.0 * pad) * counts[i] / top;
      s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#36c\"/>",
          pad + i * bw, ht - pad - bh, bw - 1, bh));
    }
    for (int i = 0; i <= bins; i += 5) {
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%.1f</text>",
          pad + i * bw, ht - pad + 15, i * width));
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\">max bin: %d questions</text>", pad + 5, pad - 10, top));
    s.append("</svg>");
    return s.toString();
  }

  private static String axis(int w, int h, int pad) {
    return String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>",
        pad, h - pad, w - pad, h - pad, pad, pad, pad, h - pad);
  }

  private static void row(StringBuilder h, String k, String v) {
    h.append("<tr><td style=\"text-align:left\">").append(esc(k)).append("</td><td>").append(esc(v)).append("</td></tr>");
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
