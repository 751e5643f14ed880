package dev.schemarag.core.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * Reads a schema description JSON (the format of the retrieval benchmarks, also the import path
 * for databases we cannot connect to): {@code {"name", "tables": [{"name", "db_id"?, "description"?,
 * "columns": [{"name", "type", "primary_key"?, "description"?, "column_description"?,
 * "value_description"?}], "foreign_keys": [{"from_column", "to_table", "to_column"}]}]}}.
 * A table's {@code db_id} becomes its module. A file whose name ends in {@code .gz} is read through gzip.
 */
public final class SchemaJsonLoader {
  private SchemaJsonLoader() {}

  public static SchemaModel load(Path file) throws IOException {
    JsonNode root;
    try {
      byte[] bytes = Files.readAllBytes(file);
      root = new ObjectMapper().readTree(file.getFileName().toString().endsWith(".gz")
          ? new GZIPInputStream(new ByteArrayInputStream(bytes)).readAllBytes() : bytes);
    } catch (IOException e) {
      throw new IOException("cannot read schema file " + file + ": " + e.getMessage(), e);
    }
    return parse(root, file.toString());
  }

  public static SchemaModel parse(JsonNode root, String source) {
    JsonNode tablesNode = root.path("tables");
    if (!tablesNode.isArray()) {
      throw new IllegalArgumentException(source + ": expected a top-level \"tables\" array");
    }
    String databaseId = root.path("name").asText("imported");
    List<Table> tables = new ArrayList<>();
    List<ForeignKey> fks = new ArrayList<>();
    int i = 0;
    for (JsonNode t : tablesNode) {
      String name = t.path("name").asText("");
      if (name.isBlank()) {
        throw new IllegalArgumentException(source + ": table #" + i + " has no \"name\"");
      }
      List<Column> columns = new ArrayList<>();
      for (JsonNode c : t.path("columns")) {
        String cname = c.path("name").asText("");
        if (cname.isBlank()) {
          throw new IllegalArgumentException(source + ": a column of table " + name + " has no \"name\"");
        }
        columns.add(new Column(cname, c.path("type").asText("text"), !c.path("primary_key").asBoolean(false),
            Optional.empty(), Optional.ofNullable(columnText(c, cname)), c.path("primary_key").asBoolean(false),
            Optional.empty()));
      }
      int k = 0;
      for (JsonNode fk : t.path("foreign_keys")) {
        String from = fk.path("from_column").asText();
        String toTable = fk.path("to_table").asText();
        String toColumn = fk.path("to_column").asText();
        fks.add(new ForeignKey(name + "_fk" + (k++), name, List.of(from), toTable, List.of(toColumn)));
        int idx = indexOf(columns, from);
        if (idx >= 0) {
          Column c = columns.get(idx);
          columns.set(idx, new Column(c.name(), c.type(), c.nullable(), c.defaultValue(), c.comment(), c.primaryKey(),
              Optional.of(toTable + "." + toColumn)));
        }
      }
      String description = text(t, "description");
      if (description != null && description.equalsIgnoreCase(t.path("original_name").asText(name))) {
        description = null; // a description that only repeats the name adds nothing
      }
      tables.add(new Table(name, Optional.ofNullable(description), columns, Optional.ofNullable(text(t, "db_id"))));
      i++;
    }
    return new SchemaModel(databaseId, tables, fks);
  }

  private static int indexOf(List<Column> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The column's readable text: description, plus the longer description and value notes where given. */
  private static String columnText(JsonNode c, String name) {
    List<String> parts = new ArrayList<>();
    String d = text(c, "description");
    if (d != null && !normalized(d).equals(normalized(name))) {
      parts.add(d);
    }
    String cd = text(c, "column_description");
    if (cd != null && parts.stream().noneMatch(p -> normalized(p).equals(normalized(cd))) && !normalized(cd).equals(normalized(name))) {
      parts.add(cd);
    }
    String vd = text(c, "value_description");
    if (vd != null) {
      parts.add(vd);
    }
    return parts.isEmpty() ? null : String.join("; ", parts);
  }

  private static String normalized(String s) {
    return s.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    String s = v.asText().strip();
    return s.isEmpty() ? null : s;
  }
}
