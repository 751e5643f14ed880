package dev.schemarag.core.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Questions of a public benchmark in Spider's format (a JSON array of objects with {@code db_id},
 * a question and its gold {@code query}), as Spider's variants publish them (Spider-Syn,
 * Spider-Realistic, Spider-DK, KaggleDBQA). The gold tables are the tables the gold SQL reads
 * (jsqlparser), named as the indexed schema names them: {@code <db_id>__<table>} in a union schema
 * (see the bench README), the table itself otherwise. No gold columns: the SQL's columns are not
 * resolved to tables here.
 */
public final class SpiderFormatQuestions {

  private SpiderFormatQuestions() {}

  /** Whether {@code file} is such a file (a JSON array) rather than the JSONL of {@link BenchQuestion#load}. */
  public static boolean isSpiderFormat(Path file) throws IOException {
    try (var r = Files.newBufferedReader(file)) {
      for (int c; (c = r.read()) != -1; ) {
        if (!Character.isWhitespace(c)) {
          return c == '[';
        }
      }
    }
    return false;
  }

  /**
   * Reads {@code file}, taking each question from {@code questionField} ("question" in Spider itself,
   * "SpiderSynQuestion" in Spider-Syn). An entry without it or without SQL, a SQL jsqlparser cannot
   * read, or a table the schema does not hold is an error that names the entry.
   */
  public static List<BenchQuestion> load(Path file, String questionField, SchemaModel schema) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    if (!root.isArray()) {
      throw new IOException(file + " is not a JSON array of questions");
    }
    Map<String, String> tables = new HashMap<>();
    for (Table t : schema.tables()) {
      tables.put(t.name().toLowerCase(Locale.ROOT), t.name());
    }
    String prefix = file.getFileName().toString().replaceAll("\\.json$", "");
    List<BenchQuestion> out = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      JsonNode n = root.get(i);
      String where = file + " entry " + i;
      if (!n.path(questionField).isTextual() || !n.path("query").isTextual()) {
        throw new IOException(where + " needs \"" + questionField + "\" and \"query\"");
      }
      Set<String> read;
      try {
        read = TablesNamesFinder.findTables(n.get("query").asText());
      } catch (JSQLParserException e) {
        throw new IOException(where + ": its SQL cannot be parsed: " + e.getMessage().lines().findFirst().orElse(""), e);
      }
      String db = n.path("db_id").asText("");
      Set<String> gold = new LinkedHashSet<>();
      for (String name : read) {
        String bare = name.replace("\"", "").replace("`", "").toLowerCase(Locale.ROOT);
        String found = tables.getOrDefault(db.toLowerCase(Locale.ROOT) + "__" + bare, tables.get(bare));
        if (found == null) {
          throw new IOException(where + ": table " + name + " of database '" + db + "' is not in the schema " + schema.databaseId());
        }
        gold.add(found);
      }
      out.add(new BenchQuestion(prefix + "-" + i, n.get(questionField).asText(), List.copyOf(gold), List.of()));
    }
    return out;
  }
}
