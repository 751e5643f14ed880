package dev.schemarag.core.chunk;

import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one table (catalog and/or doc) into chunks: one overview, one per column, one per
 * documented query pattern, one for its relationships, one per example. Deterministic: the same
 * input gives the same ids, texts and hashes, so a diff against the previous chunks finds exactly
 * what changed.
 */
public final class Chunker {

  /** Where a table's overview text turns from what its comment and doc say to its column names. */
  public static final String OVERVIEW_COLUMNS = ". columns: ";

  /** Embed texts are kept short: the default model reads only the first 128 word pieces. */
  private static final int MAX_EMBED_CHARS = 400;

  private Chunker() {}

  /** Chunks of every table of the model, docs merged by table name. */
  public static List<Chunk> chunkAll(SchemaModel model, Map<String, TableDoc> docs) {
    List<Chunk> out = new ArrayList<>();
    for (Table t : model.tables()) {
      out.addAll(chunk(model, Optional.of(t), Optional.ofNullable(docs.get(t.name()))));
    }
    // A documented table the catalog does not have still indexes from its doc.
    for (TableDoc d : docs.values()) {
      if (model.table(d.table()).isEmpty()) {
        out.addAll(chunk(model, Optional.empty(), Optional.of(d)));
      }
    }
    return out;
  }

  /** Chunks of one table; at least one of catalog table and doc must be present. */
  public static List<Chunk> chunk(SchemaModel model, Optional<Table> catalog, Optional<TableDoc> doc) {
    String name = catalog.map(Table::name).or(() -> doc.map(TableDoc::table))
        .orElseThrow(() -> new IllegalArgumentException("a table needs a catalog entry or a doc"));
    Table table = merged(name, catalog, doc);
    String db = model.databaseId();
    List<String> related = relatedTables(model, name, doc);
    List<Chunk> chunks = new ArrayList<>();

    String tableWords = Identifiers.readable(name);
    StringBuilder overview = new StringBuilder(tableWords);
    table.comment().ifPresent(c -> overview.append(": ").append(c));
    doc.flatMap(TableDoc::purpose).ifPresent(p -> overview.append(". ").append(p));
    doc.flatMap(TableDoc::businessContext).ifPresent(b -> overview.append(". ").append(b));
    // Column names, not their comments: a COMMENT on a column re-embeds that column's chunk only.
    overview.append(OVERVIEW_COLUMNS).append(String.join(", ", table.columns().stream().map(c -> Identifiers.readable(c.name())).toList()));
    chunks.add(make(db, name, ChunkKind.OVERVIEW, Optional.empty(), related, keywords(name, table.columns()),
        overview.toString(), compactDdl(model, table)));

    // A column is described within its table, not its module: the module's words, repeated in
    // every column of the module, would make its columns look alike to the embedding model.
    String localWords = localWords(name, table.module());
    for (Column c : table.columns()) {
      StringBuilder e = new StringBuilder(localWords).append(' ').append(Identifiers.readable(c.name()));
      Optional<TableDoc.ColumnDoc> cd = doc.map(d -> d.columns().get(c.name()));
      List<String> facts = new ArrayList<>();
      c.comment().ifPresent(facts::add);
      cd.flatMap(TableDoc.ColumnDoc::description).filter(d -> !facts.contains(d)).ifPresent(facts::add);
      // The doc's domain is the owner's word on the values; without one, what the statistics sampled of them.
      Optional<String> domain = cd.flatMap(TableDoc.ColumnDoc::domain);
      Optional<String> sampled = domain.isPresent() ? Optional.empty() : values(c);
      domain.or(() -> sampled).ifPresent(d -> facts.add("values: " + d));
      if (!facts.isEmpty()) {
        e.append(": ").append(String.join(". ", facts));
      }
      chunks.add(make(db, name, ChunkKind.COLUMN, Optional.of(c.name()), related, keywords(c.name(), List.of()),
          e.toString(), columnPrompt(name, c, cd, sampled)));
    }

    for (TableDoc.QueryPattern q : doc.map(TableDoc::queryPatterns).orElse(List.of())) {
      String embed = q.name() + q.useCase().map(u -> ": " + u).orElse("") + q.returns().map(r -> ". Returns " + r).orElse("");
      String prompt = "-- " + q.name() + q.useCase().map(u -> " (" + u + ")").orElse("") + PATTERN_SQL_SEPARATOR + q.sql();
      chunks.add(make(db, name, ChunkKind.QUERY, Optional.of(q.name()), related, keywords(q.name(), List.of()), embed, prompt));
    }

    List<String> relLines = new ArrayList<>();
    for (ForeignKey fk : model.outgoing(name)) {
      relLines.add(Identifiers.readable(name) + " " + Identifiers.readable(String.join(" ", fk.fromColumns()))
          + " references " + Identifiers.readable(fk.toTable()));
    }
    for (ForeignKey fk : model.incoming(name)) {
      relLines.add(Identifiers.readable(fk.fromTable()) + " references " + Identifiers.readable(name));
    }
    doc.map(TableDoc::relationships).orElse(List.of()).forEach(relLines::add);
    if (!relLines.isEmpty()) {
      List<String> prompt = new ArrayList<>();
      model.outgoing(name).forEach(fk -> prompt.add(fk.joinCondition()));
      model.incoming(name).forEach(fk -> prompt.add(fk.joinCondition()));
      doc.map(TableDoc::relationships).orElse(List.of()).forEach(prompt::add);
      chunks.add(make(db, name, ChunkKind.RELATIONSHIP, Optional.empty(), related, related,
          String.join("; ", relLines), String.join("\n", prompt)));
    }

    List<String> examples = doc.map(TableDoc::examples).orElse(List.of());
    for (int i = 0; i < examples.size(); i++) {
      chunks.add(make(db, name, ChunkKind.EXAMPLE, Optional.of("example-" + (i + 1)), related, List.of(),
          tableWords + " example: " + examples.get(i), examples.get(i)));
    }
    return chunks;
  }

  /**
   * The table's name as words without a leading module qualifier: {@code sales.orders} in module
   * {@code sales} reads "orders". A name that does not start with its module's words is kept whole.
   */
  public static String localWords(String table, Optional<String> module) {
    List<String> words = Identifiers.words(table);
    List<String> prefix = module.map(Identifiers::words).orElse(List.of());
    if (!prefix.isEmpty() && words.size() > prefix.size() && words.subList(0, prefix.size()).equals(prefix)) {
      words = words.subList(prefix.size(), words.size());
    }
    return String.join(" ", words);
  }

  /** The catalog table with doc-only columns added and doc descriptions filling empty comments. */
  static Table merged(String name, Optional<Table> catalog, Optional<TableDoc> doc) {
    Map<String, Column> cols = new LinkedHashMap<>();
    catalog.ifPresent(t -> t.columns().forEach(c -> cols.put(c.name(), c)));
    doc.ifPresent(d -> d.columns().values().forEach(cd -> {
      Column existing = cols.get(cd.name());
      if (existing == null) {
        cols.put(cd.name(), new Column(cd.name(), cd.type().orElse("unknown"), cd.nullable().orElse(true),
            Optional.empty(), Optional.empty(), false, Optional.empty()));
      }
    }));
    Optional<String> comment = catalog.flatMap(Table::comment);
    return new Table(name, comment, List.copyOf(cols.values()), catalog.flatMap(Table::module));
  }

  static List<String> relatedTables(SchemaModel model, String name, Optional<TableDoc> doc) {
    Set<String> related = new LinkedHashSet<>(model.neighbours(name));
    doc.ifPresent(d -> d.relatedTables().forEach(t -> {
      // With a catalog, keep only mentions that are tables; without one, trust the doc.
      if (model.size() == 0 || model.table(t).isPresent()) {
        related.add(t);
      }
    }));
    related.remove(name);
    return List.copyOf(related);
  }

  private static List<String> keywords(String name, List<Column> columns) {
    Set<String> k = new LinkedHashSet<>(Identifiers.words(name));
    columns.forEach(c -> k.addAll(Identifiers.words(c.name())));
    return List.copyOf(k);
  }

  /** {@code orders (order_id bigint PK, user_id bigint FK→users.id, …) -- comment} */
  /** Separates a query chunk's prompt text (its name and use case, one comment line) from its SQL. */
  static final String PATTERN_SQL_SEPARATOR = "\n";

  /** The SQL of a query-pattern chunk, from its prompt text. */
  public static String patternSql(Chunk query) {
    if (query.kind() != ChunkKind.QUERY) {
      throw new IllegalArgumentException("not a query pattern: " + query.id());
    }
    String p = query.promptText();
    int cut = p.indexOf(PATTERN_SQL_SEPARATOR);
    return cut < 0 ? p : p.substring(cut + PATTERN_SQL_SEPARATOR.length()).strip();
  }

  public static String compactDdl(SchemaModel model, Table t) {
    return compactDdl(model, t, Map.of());
  }

  /**
   * The compact DDL with the sampled values of its categorical columns, by column name, as the column chunks
   * carry them ({@link #columnValues}): {@code status text [values: open, pending]}, so that a model writing SQL
   * spells a literal as the data does.
   */
  public static String compactDdl(SchemaModel model, Table t, Map<String, String> sampledValues) {
    StringBuilder sb = new StringBuilder(t.name()).append(" (");
    for (int i = 0; i < t.columns().size(); i++) {
      Column c = t.columns().get(i);
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(c.name()).append(' ').append(c.type());
      if (c.primaryKey()) {
        sb.append(" PK");
      }
      c.references().ifPresent(r -> sb.append(" FK→").append(r));
      if (!c.nullable() && !c.primaryKey()) {
        sb.append(" NOT NULL");
      }
      String values = sampledValues.get(c.name());
      if (values != null && !values.isEmpty()) {
        sb.append(" [values: ").append(values).append(']');
      }
    }
    sb.append(')');
    t.comment().ifPresent(c -> sb.append(" -- ").append(c));
    return sb.toString();
  }

  /** Separates a column chunk's prompt line from its sampled values, when it has any. */
  static final String COLUMN_VALUES_SEPARATOR = "\n-- values: ";

  /**
   * The values sampled from the data that a column chunk's embed text carries, as its prompt text ends with them
   * ("" when none): the query side tells by them that the chunk's cosine rests partly on data.
   */
  public static String columnValues(Chunk column) {
    if (column.kind() != ChunkKind.COLUMN) {
      return "";
    }
    String p = column.promptText();
    int cut = p.lastIndexOf(COLUMN_VALUES_SEPARATOR);
    return cut < 0 ? "" : p.substring(cut + COLUMN_VALUES_SEPARATOR.length());
  }

  /**
   * The values of a {@link #columnValues} line, each apart. A value that holds ", " itself comes back
   * in parts: each part is still text of the column's data.
   */
  public static List<String> splitValues(String line) {
    return line.isBlank() ? List.of() : java.util.Arrays.stream(line.split(", ")).map(String::strip).filter(v -> !v.isEmpty()).toList();
  }

  /** A categorical column's sampled values as one line, or empty. */
  static Optional<String> values(Column c) {
    return c.values().isEmpty() ? Optional.empty() : Optional.of(String.join(", ", c.values()));
  }

  /** @param sampled the sampled values the column's embed text carries, which the prompt line ends with */
  private static String columnPrompt(String table, Column c, Optional<TableDoc.ColumnDoc> cd, Optional<String> sampled) {
    StringBuilder sb = new StringBuilder(table).append('.').append(c.name()).append(' ').append(c.type());
    if (c.primaryKey()) {
      sb.append(" PK");
    }
    c.references().ifPresent(r -> sb.append(" FK→").append(r));
    Optional<String> text = c.comment().or(() -> cd.flatMap(TableDoc.ColumnDoc::description));
    text.ifPresent(t -> sb.append(" -- ").append(t));
    sampled.ifPresent(v -> sb.append(COLUMN_VALUES_SEPARATOR).append(v));
    return sb.toString();
  }

  private static Chunk make(String db, String table, ChunkKind kind, Optional<String> subject, List<String> related,
                            List<String> keywords, String embedText, String promptText) {
    String embed = embedText.length() > MAX_EMBED_CHARS ? embedText.substring(0, MAX_EMBED_CHARS) : embedText;
    String id = Hashing.sha256(db, table, kind.label(), subject.orElse("")).substring(0, 32);
    String embedHash = Hashing.sha256(embed);
    String contentHash = Hashing.sha256(embed, promptText, String.join(",", related), String.join(",", keywords));
    int tokens = Math.max(1, promptText.length() / 4);
    return new Chunk(id, db, table, kind, subject, related, keywords, tokens, embed, promptText, embedHash, contentHash);
  }
}
