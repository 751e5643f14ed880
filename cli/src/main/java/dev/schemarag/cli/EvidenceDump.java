package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemarag.core.eval.BenchQuestion;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.retrieval.TableEvidence;
import dev.schemarag.core.schema.Table;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One question's evidence as a JSON-able row, for offline analysis of fusion. */
final class EvidenceDump {
  private EvidenceDump() {}

  /**
   * JSON lines written as the questions are asked, one per row, after what the file holds with
   * {@code append}, else in its place. Nothing is kept: rows held until the end were copied by every
   * young collection of the timed loop (hundreds of MB at 10,000 tables), which showed in its latency.
   */
  static final class Writer implements AutoCloseable {
    private final ObjectMapper json = new ObjectMapper();
    private final BufferedWriter out;
    private int rows;

    Writer(Path file, boolean append) throws IOException {
      out = append ? Files.newBufferedWriter(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND) : Files.newBufferedWriter(file);
    }

    void write(Map<String, Object> row) {
      try {
        out.write(json.writeValueAsString(row));
        out.newLine();
        rows++;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the evidence row of " + row.get("id"), e);
      }
    }

    int rows() {
      return rows;
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  static Map<String, Object> row(BenchQuestion q, SchemaRetriever.Result r, SchemaIndex index) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", q.id());
    row.put("gold", q.goldTables());
    row.put("packet", r.packet().tableNames());
    row.put("sources", r.packet().tables().stream().map(t -> t.source()).toList());
    row.put("question", q.question());
    row.put("relevance", r.packet().metrics().getOrDefault("relevance_milli", 0L) / 1000.0);
    if (r.packet().metrics().containsKey("world_milli")) {
      row.put("world", r.packet().metrics().get("world_milli") / 1000.0);
    }
    r.packet().refusal().ifPresent(f -> row.put("refused", f.reason().name()));
    List<Map<String, Object>> cands = new ArrayList<>();
    for (TableEvidence e : r.evidence()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("t", e.table());
      c.put("m", index.model().table(e.table()).flatMap(Table::module).orElse(""));
      c.put("f", e.fused());
      c.put("dt", Double.isNaN(e.denseTable()) ? null : e.denseTable());
      c.put("lt", e.lexicalTable());
      c.put("dq", Double.isNaN(e.denseQuery()) ? null : e.denseQuery());
      c.put("dc", e.denseColumns().stream().map(h -> List.of(h.column(), h.score(), h.specificity())).toList());
      c.put("lc", e.lexicalColumns().stream().map(h -> List.of(h.column(), h.score(), h.specificity())).toList());
      cands.add(c);
    }
    row.put("cands", cands);
    // The selector's view of the leading tables: table, probability (null without fitted weights), feature row.
    row.put("judged", r.judged().stream().map(c -> List.of(c.table(), Double.isNaN(c.probability()) ? -1.0 : c.probability(),
        java.util.Arrays.stream(c.features()).boxed().toList())).toList());
    row.put("mods", r.moduleScores());
    return row;
  }
}
