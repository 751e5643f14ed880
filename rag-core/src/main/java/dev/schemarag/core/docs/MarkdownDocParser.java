package dev.schemarag.core.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Parses schema docs in the seed format: {@code # Table: <name>}, {@code ## Purpose},
 * {@code ## Business Context}, {@code ## Columns} with {@code ### <column>} bullet lists,
 * {@code ## Common Queries} with {@code ### Query Pattern: <name>} + a sql block + Use case /
 * Returns, {@code ## Relationships}, {@code ## Examples}, {@code ## Notes}.
 */
public final class MarkdownDocParser {

  private static final Pattern TITLE = Pattern.compile("^#\\s+Table:\\s*`?([A-Za-z_][\\w.$]*)`?\\s*$");
  private static final Pattern BULLET = Pattern.compile("^\\s*[-*]\\s+\\**([A-Za-z ]+?)\\**\\s*:\\s*(.*)$");
  private static final Pattern PATTERN_HEAD = Pattern.compile("^###\\s+Query Pattern:\\s*(.+)$", Pattern.CASE_INSENSITIVE);
  /** Table mentions in relationship lines: `name`, name.column, or "references/to/from name". */
  private static final Pattern MENTION = Pattern.compile(
      "`([A-Za-z_][\\w]*)(?:\\.[A-Za-z_][\\w]*)?`|\\b([A-Za-z_][\\w]*)\\.[A-Za-z_][\\w]*\\b|(?:references|referenced by|→|->|to|from|joins?)\\s+`?([A-Za-z_][\\w]*)`?",
      Pattern.CASE_INSENSITIVE);

  /** A file that could not be read as a schema doc; the reason names the problem. */
  public record Problem(Path file, String reason) {}

  /** What a folder of docs gave: the docs by table, the files skipped, the database description. */
  public record Result(Map<String, TableDoc> docs, List<Problem> problems, Optional<String> databaseDescription) {}

  private MarkdownDocParser() {}

  /** Parses every {@code *.md} in {@code dir}; a malformed file is reported and skipped, the others load. */
  public static Result parseFolder(Path dir) throws IOException {
    Map<String, TableDoc> docs = new LinkedHashMap<>();
    List<Problem> problems = new ArrayList<>();
    Optional<String> index = Optional.empty();
    if (!Files.isDirectory(dir)) {
      return new Result(docs, problems, index);
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().toList();
    }
    for (Path f : files) {
      String content = Files.readString(f, StandardCharsets.UTF_8);
      if (f.getFileName().toString().equals("_index.md")) {
        index = Optional.of(content.strip());
        continue;
      }
      try {
        TableDoc doc = parse(content);
        docs.put(doc.table(), doc);
      } catch (MalformedDocException e) {
        problems.add(new Problem(f, e.getMessage()));
      }
    }
    return new Result(docs, problems, index);
  }

  /** Parses one doc; throws {@link MalformedDocException} naming what is wrong. */
  public static TableDoc parse(String markdown) {
    List<String> lines = markdown.lines().toList();
    int first = 0;
    while (first < lines.size() && lines.get(first).isBlank()) {
      first++;
    }
    if (first == lines.size()) {
      throw new MalformedDocException("the file is empty");
    }
    Matcher title = TITLE.matcher(lines.get(first).strip());
    if (!title.matches()) {
      throw new MalformedDocException("the first heading must be '# Table: <name>', found '" + lines.get(first).strip() + "'");
    }
    String table = title.group(1);

    Map<String, List<String>> sections = new LinkedHashMap<>();
    String current = null;
    boolean inFence = false;
    int fenceLine = -1;
    for (int i = first + 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.strip().startsWith("```")) {
        inFence = !inFence;
        fenceLine = i + 1;
      }
      if (!inFence && line.startsWith("## ")) {
        current = line.substring(3).strip().toLowerCase(Locale.ROOT);
        sections.putIfAbsent(current, new ArrayList<>());
        continue;
      }
      if (current != null) {
        sections.get(current).add(line);
      }
    }
    if (inFence) {
      throw new MalformedDocException("a ``` code block opened at line " + fenceLine + " is never closed");
    }

    Map<String, TableDoc.ColumnDoc> columns = parseColumns(sections.getOrDefault("columns", List.of()));
    List<TableDoc.QueryPattern> patterns = parsePatterns(sections.getOrDefault("common queries", List.of()));
    List<String> relationships = bullets(sections.getOrDefault("relationships", List.of()));
    return new TableDoc(table,
        paragraph(sections.get("purpose")), paragraph(sections.get("business context")),
        columns, patterns, relationships, mentions(relationships, table),
        examples(sections.getOrDefault("examples", List.of())), paragraph(sections.get("notes")));
  }

  private static Optional<String> paragraph(List<String> lines) {
    if (lines == null) {
      return Optional.empty();
    }
    String text = String.join(" ", lines.stream().map(String::strip).filter(l -> !l.isEmpty()).toList());
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  private static Map<String, TableDoc.ColumnDoc> parseColumns(List<String> lines) {
    Map<String, TableDoc.ColumnDoc> out = new LinkedHashMap<>();
    String name = null;
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : lines) {
      if (line.startsWith("### ")) {
        if (name != null) {
          out.put(name, columnDoc(name, fields));
        }
        name = line.substring(4).strip().replace("`", "");
        fields = new LinkedHashMap<>();
        continue;
      }
      Matcher m = BULLET.matcher(line);
      if (name != null && m.matches()) {
        fields.put(m.group(1).strip().toLowerCase(Locale.ROOT), m.group(2).strip());
      }
    }
    if (name != null) {
      out.put(name, columnDoc(name, fields));
    }
    return out;
  }

  private static TableDoc.ColumnDoc columnDoc(String name, Map<String, String> f) {
    Optional<Boolean> nullable = Optional.ofNullable(f.get("nullable")).map(v -> v.toLowerCase(Locale.ROOT))
        .map(v -> v.startsWith("y") || v.startsWith("true"));
    return new TableDoc.ColumnDoc(name, opt(f.get("type")), opt(f.get("description")), opt(f.get("domain")), nullable,
        opt(f.get("notes")));
  }

  private static Optional<String> opt(String s) {
    return Optional.ofNullable(s).map(String::strip).filter(v -> !v.isEmpty());
  }

  private static List<TableDoc.QueryPattern> parsePatterns(List<String> lines) {
    List<TableDoc.QueryPattern> out = new ArrayList<>();
    String name = null;
    StringBuilder sql = null;
    boolean inSql = false;
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher head = PATTERN_HEAD.matcher(line.strip());
      if (!inSql && head.matches()) {
        if (name != null) {
          out.add(pattern(name, sql, fields));
        }
        name = head.group(1).strip();
        sql = null;
        fields = new LinkedHashMap<>();
        continue;
      }
      if (line.strip().startsWith("```")) {
        if (!inSql) {
          inSql = true;
          sql = new StringBuilder();
        } else {
          inSql = false;
        }
        continue;
      }
      if (inSql) {
        sql.append(line).append('\n');
        continue;
      }
      Matcher m = BULLET.matcher(line);
      if (name != null && m.matches()) {
        fields.put(m.group(1).strip().toLowerCase(Locale.ROOT), m.group(2).strip());
      }
    }
    if (name != null) {
      out.add(pattern(name, sql, fields));
    }
    return out;
  }

  private static TableDoc.QueryPattern pattern(String name, StringBuilder sql, Map<String, String> f) {
    if (sql == null || sql.toString().isBlank()) {
      throw new MalformedDocException("query pattern '" + name + "' has no ```sql block");
    }
    return new TableDoc.QueryPattern(name, sql.toString().strip(), opt(f.get("use case")), opt(f.get("returns")));
  }

  private static List<String> bullets(List<String> lines) {
    return lines.stream().map(String::strip).filter(l -> l.startsWith("- ") || l.startsWith("* "))
        .map(l -> l.substring(2).strip()).filter(l -> !l.isEmpty()).toList();
  }

  private static List<String> examples(List<String> lines) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String line : lines) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("- ") || l.startsWith("* ") || l.startsWith("### ")) {
        if (cur.length() > 0) {
          out.add(cur.toString().strip());
          cur.setLength(0);
        }
        if (l.startsWith("- ") || l.startsWith("* ")) {
          cur.append(l.substring(2)).append(' ');
        } else if (l.startsWith("### ")) {
          cur.append(l.substring(4)).append(": ");
        }
        continue;
      }
      if (!l.startsWith("```")) {
        cur.append(l).append(' ');
      }
    }
    if (cur.length() > 0) {
      out.add(cur.toString().strip());
    }
    return out;
  }

  /** Tables named in the relationship lines (the doc's own table excluded). */
  static List<String> mentions(List<String> relationships, String self) {
    Set<String> out = new LinkedHashSet<>();
    for (String r : relationships) {
      Matcher m = MENTION.matcher(r);
      while (m.find()) {
        for (int g = 1; g <= 3; g++) {
          String t = m.group(g);
          if (t != null && !t.equalsIgnoreCase(self) && t.length() > 1 && !STOP.contains(t.toLowerCase(Locale.ROOT))) {
            out.add(t);
          }
        }
      }
    }
    return List.copyOf(out);
  }

  private static final Set<String> STOP = Set.of("the", "a", "an", "one", "many", "each", "this", "that", "its", "their");
}
