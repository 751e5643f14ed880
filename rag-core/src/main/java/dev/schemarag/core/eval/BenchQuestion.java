package dev.schemarag.core.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One benchmark question with its gold tables and columns ({@code table.column}, split at the first dot). */
public record BenchQuestion(String id, String question, List<String> goldTables, List<String> goldColumns) {

  /** Writes questions as the JSONL file {@link #load} reads: id, question, gold tables and columns. */
  public static void write(Path file, List<BenchQuestion> questions) throws IOException {
    ObjectMapper json = new ObjectMapper();
    StringBuilder out = new StringBuilder();
    for (BenchQuestion q : questions) {
      com.fasterxml.jackson.databind.node.ObjectNode n = json.createObjectNode();
      n.put("id", q.id());
      n.put("question", q.question());
      q.goldTables().forEach(n.putArray("gold_tables")::add);
      q.goldColumns().forEach(n.putArray("gold_columns")::add);
      out.append(json.writeValueAsString(n)).append('\n');
    }
    Files.writeString(file, out, StandardCharsets.UTF_8);
  }

  /** Reads a questions JSONL file; a bad line is an error naming the file and line. */
  public static List<BenchQuestion> load(Path file) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<BenchQuestion> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int lineNo = 0;
      for (String line; (line = r.readLine()) != null; ) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode n;
        try {
          n = json.readTree(line);
        } catch (IOException e) {
          throw new IOException(file + " line " + lineNo + " is not JSON: " + e.getMessage(), e);
        }
        if (!n.hasNonNull("question") || !n.path("gold_tables").isArray()) {
          throw new IOException(file + " line " + lineNo + " needs \"question\" and a \"gold_tables\" array");
        }
        List<String> tables = new ArrayList<>();
        n.path("gold_tables").forEach(t -> tables.add(t.asText()));
        List<String> columns = new ArrayList<>();
        n.path("gold_columns").forEach(c -> columns.add(c.asText()));
        out.add(new BenchQuestion(n.path("id").asText("line-" + lineNo), n.get("question").asText(), tables, columns));
      }
    }
    return out;
  }
}
