package dev.schemarag.core.retrieval;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.LexicalIndex;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the engine keeps in memory for one database: the schema model, the lexical index, the
 * compact DDL of every table and how specific each column name is. Immutable; rebuilt when the
 * schema changes.
 */
public final class SchemaIndex {

  final SchemaModel model;
  final LexicalIndex lexical;
  final Map<String, String> ddl = new HashMap<>();
  final Map<String, Integer> ddlTokens = new HashMap<>();
  /** Column name (normalized) -> number of tables that have it. */
  final Map<String, Integer> columnDf = new HashMap<>();
  final Set<ChunkKind> kinds;
  /** BM25 over one document per module (its tables' and columns' names and texts); empty without modules. */
  final java.util.Optional<LexicalIndex> modules;
  final Map<String, String> moduleOf = new HashMap<>();
  final int schemaTokens;
  /** Which tables a question names. */
  final NamedTables named;
  /** Query-pattern chunks by table and pattern name: dense hits name them, the packet carries their SQL. */
  private final Map<String, Chunk> patterns = new HashMap<>();
  /** What it was built from, so that a role's view of it can be built ({@link #restrictedTo}). */
  private final List<Chunk> chunks;
  private final RetrievalSettings settings;

  public SchemaIndex(SchemaModel model, List<Chunk> chunks, RetrievalSettings settings) {
    this.model = model;
    this.chunks = List.copyOf(chunks);
    this.settings = settings;
    this.lexical = new LexicalIndex(chunks, settings.bm25K1(), settings.bm25B());
    this.kinds = chunks.stream().map(Chunk::kind).collect(Collectors.toUnmodifiableSet());
    int total = 0;
    for (Table t : model.tables()) {
      String d = Chunker.compactDdl(model, t);
      ddl.put(t.name(), d);
      int tokens = Math.max(1, d.length() / 4);
      ddlTokens.put(t.name(), tokens);
      total += tokens;
      t.columns().stream().map(c -> normalizedColumn(c.name())).distinct().forEach(n -> columnDf.merge(n, 1, Integer::sum));
    }
    this.schemaTokens = total;
    Map<String, StringBuilder> moduleText = new java.util.LinkedHashMap<>();
    // A table's overview text holds what its comment and doc say of it: the glosses of its name.
    Map<String, String> glossText = new HashMap<>();
    for (Chunk c : chunks) {
      if (c.kind() == ChunkKind.OVERVIEW) {
        glossText.put(c.table(), c.embedText());
      }
      if (c.kind() == ChunkKind.QUERY) {
        c.subject().ifPresent(name -> patterns.put(patternKey(c.table(), name), c));
      }
      model.table(c.table()).flatMap(Table::module).ifPresent(m -> {
        moduleOf.put(c.table(), m);
        if (c.kind() == ChunkKind.OVERVIEW || c.kind() == ChunkKind.COLUMN) {
          moduleText.computeIfAbsent(m, k -> new StringBuilder()).append(c.embedText()).append('\n');
        }
      });
    }
    this.named = new NamedTables(model, glossText, columnDf);
    this.modules = moduleText.size() < 2 ? java.util.Optional.empty() : java.util.Optional.of(LexicalIndex.of(
        moduleText.entrySet().stream().map(e -> new LexicalIndex.Doc(e.getKey(), e.getKey(), LexicalIndex.MODULE,
            java.util.Optional.empty(), e.getValue().toString())).toList(), settings.bm25K1(), settings.bm25B()));
  }

  private static String patternKey(String table, String name) {
    return table + '\n' + name;
  }

  /** The query pattern a dense hit names, when this index holds it. */
  java.util.Optional<PatternMatch> pattern(String table, String name, double similarity) {
    Chunk c = patterns.get(patternKey(table, name));
    return c == null ? java.util.Optional.empty()
        : java.util.Optional.of(new PatternMatch(table, name, similarity, Chunker.patternSql(c), c.promptText()));
  }

  static String normalizedColumn(String name) {
    return String.join("", Identifiers.words(name)).toLowerCase(Locale.ROOT);
  }

  /**
   * How much a column name says about its table, in (0, 1]: a name that occurs in many tables
   * (id, name, status, created_at) says little; a name only one table has says much.
   */
  double specificity(String column) {
    int df = columnDf.getOrDefault(normalizedColumn(column), 1);
    return 1.0 / (1.0 + Math.log(df));
  }

  public SchemaModel model() {
    return model;
  }

  /**
   * This index as {@code view}'s role sees it: built from the restricted model and the chunks the
   * view keeps, so names, glosses, foreign keys, patterns and statistics hold nothing hidden. The
   * index itself when the view covers everything.
   */
  public SchemaIndex restrictedTo(SchemaView view) {
    if (view.covers(model)) {
      return this;
    }
    return new SchemaIndex(view.restrict(model), chunks.stream().filter(view::keeps).toList(), settings);
  }
}
