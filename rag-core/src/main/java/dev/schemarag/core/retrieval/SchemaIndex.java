package dev.schemarag.core.retrieval;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.LexicalIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the engine keeps in memory for one database: the schema model, the lexical index, the
 * compact DDL of every table and how specific each column name is. Immutable: a change to a few
 * tables gives a new version ({@link #withTables}) that shares what did not change, so a question
 * holding a version never sees a half-applied change, and a change costs what its tables cost,
 * not the whole schema.
 */
public final class SchemaIndex {

  /**
   * One table as it is now: its catalog entry (empty: the table is gone), every foreign key touching
   * it in either direction, and its stored chunks.
   */
  public record TableChange(String table, Optional<Table> definition, List<ForeignKey> edges, List<Chunk> chunks) {
    public TableChange {
      edges = List.copyOf(edges);
      chunks = List.copyOf(chunks);
      for (Chunk c : chunks) {
        if (!c.table().equals(table)) {
          throw new IllegalArgumentException("chunk " + c.id() + " is of table " + c.table() + ", not " + table);
        }
      }
    }
  }

  final SchemaModel model;
  final LexicalIndex lexical;
  final Map<String, String> ddl;
  final Map<String, Integer> ddlTokens;
  /** Column name (normalized) -> number of tables that have it. */
  final Map<String, Integer> columnDf;
  final Set<ChunkKind> kinds;
  private final Map<ChunkKind, Integer> kindCounts;
  /** BM25 over one document per module (its tables' and columns' names and texts); empty without modules. */
  final Optional<LexicalIndex> modules;
  /** The module index even while it holds fewer than two modules (then not searched); null until a second module appears. */
  private final LexicalIndex moduleIndex;
  /** Modules that have a document (some table of theirs has a table or column chunk). */
  private final Set<String> moduleDocs;
  final Map<String, String> moduleOf;
  final int schemaTokens;
  /** Which tables a question names. */
  final NamedTables named;
  /** Query-pattern chunks by table and pattern name: dense hits name them, the packet carries their SQL. */
  private final Map<String, Chunk> patterns;
  /** What it was built from, by table: to update it, and to build a role's view of it ({@link #restrictedTo}). */
  private final Map<String, List<Chunk>> chunks;
  private final RetrievalSettings settings;
  private final long version;

  public SchemaIndex(SchemaModel model, List<Chunk> chunks, RetrievalSettings settings) {
    this.model = model;
    this.settings = settings;
    this.version = 0;
    Map<String, List<Chunk>> byTable = new LinkedHashMap<>();
    chunks.forEach(c -> byTable.computeIfAbsent(c.table(), k -> new ArrayList<>()).add(c));
    byTable.replaceAll((t, cs) -> List.copyOf(cs));
    this.chunks = byTable;
    this.lexical = new LexicalIndex(chunks, settings.bm25K1(), settings.bm25B());
    this.kindCounts = new EnumMap<>(ChunkKind.class);
    chunks.forEach(c -> kindCounts.merge(c.kind(), 1, Integer::sum));
    this.kinds = Collections.unmodifiableSet(kindCounts.keySet());
    this.ddl = new HashMap<>();
    this.ddlTokens = new HashMap<>();
    this.columnDf = new HashMap<>();
    int total = 0;
    for (Table t : model.tables()) {
      total += describe(model, t, ddl, ddlTokens);
      countColumns(t, columnDf, 1);
    }
    this.schemaTokens = total;
    Map<String, StringBuilder> moduleText = new LinkedHashMap<>();
    this.moduleOf = new HashMap<>();
    this.patterns = new HashMap<>();
    for (Chunk c : chunks) {
      if (c.kind() == ChunkKind.QUERY) {
        c.subject().ifPresent(name -> patterns.put(patternKey(c.table(), name), c));
      }
      model.table(c.table()).flatMap(Table::module).ifPresent(m -> {
        moduleOf.put(c.table(), m);
        if (inModuleText(c)) {
          moduleText.computeIfAbsent(m, k -> new StringBuilder()).append(c.embedText()).append('\n');
        }
      });
    }
    this.named = new NamedTables(model, glossText(byTable, byTable.keySet()), columnDf);
    this.moduleDocs = Set.copyOf(moduleText.keySet());
    this.moduleIndex = moduleText.size() < 2 ? null : LexicalIndex.of(moduleText.entrySet().stream()
        .map(e -> moduleDoc(e.getKey(), e.getValue().toString())).toList(), settings.bm25K1(), settings.bm25B());
    this.modules = Optional.ofNullable(moduleIndex);
  }

  private SchemaIndex(SchemaIndex before, SchemaModel model, LexicalIndex lexical, Map<String, String> ddl, Map<String, Integer> ddlTokens,
                      Map<String, Integer> columnDf, Map<ChunkKind, Integer> kindCounts, LexicalIndex moduleIndex, Set<String> moduleDocs,
                      Map<String, String> moduleOf, int schemaTokens, NamedTables named, Map<String, Chunk> patterns,
                      Map<String, List<Chunk>> chunks) {
    this.model = model;
    this.lexical = lexical;
    this.ddl = ddl;
    this.ddlTokens = ddlTokens;
    this.columnDf = columnDf;
    this.kindCounts = kindCounts;
    this.kinds = Collections.unmodifiableSet(kindCounts.keySet());
    this.moduleIndex = moduleIndex;
    this.moduleDocs = moduleDocs;
    this.modules = moduleDocs.size() < 2 ? Optional.empty() : Optional.of(moduleIndex);
    this.moduleOf = moduleOf;
    this.schemaTokens = schemaTokens;
    this.named = named;
    this.patterns = patterns;
    this.chunks = chunks;
    this.settings = before.settings;
    this.version = before.version + 1;
  }

  /**
   * The next version, with {@code changes} applied: each changed table's catalog entry, foreign
   * keys, compact DDL, column statistics, lexical documents, names and query patterns, and the
   * module documents of the modules it left or joined. Everything else is shared with this version,
   * which still answers as before. Only the newest version of an index can be changed.
   */
  public SchemaIndex withTables(Collection<TableChange> changes) {
    if (changes.isEmpty()) {
      return this;
    }
    Map<String, Optional<Table>> definitions = new LinkedHashMap<>();
    List<ForeignKey> edges = new ArrayList<>();
    Map<String, List<Chunk>> nextChunks = new LinkedHashMap<>(chunks);
    Map<String, List<LexicalIndex.Doc>> docs = new LinkedHashMap<>();
    for (TableChange c : changes) {
      if (definitions.put(c.table(), c.definition()) != null) {
        throw new IllegalArgumentException("table " + c.table() + " is changed twice in one step");
      }
      edges.addAll(c.edges());
      if (c.chunks().isEmpty()) {
        nextChunks.remove(c.table());
      } else {
        nextChunks.put(c.table(), c.chunks());
      }
      docs.put(c.table(), LexicalIndex.docsOf(c.chunks()));
    }
    SchemaModel next = model.withTables(definitions, edges);
    Set<String> changed = definitions.keySet();

    Map<String, String> nextDdl = new HashMap<>(ddl);
    Map<String, Integer> nextDdlTokens = new HashMap<>(ddlTokens);
    Map<String, Integer> nextColumnDf = new HashMap<>(columnDf);
    Map<ChunkKind, Integer> nextKinds = new EnumMap<>(kindCounts);
    Map<String, String> nextModuleOf = new HashMap<>(moduleOf);
    Map<String, Chunk> nextPatterns = new HashMap<>(patterns);
    int tokens = schemaTokens;
    Set<String> touchedModules = new LinkedHashSet<>();
    for (String name : changed) {
      Optional<Table> old = model.table(name);
      Optional<Table> now = next.table(name);
      if (old.isPresent()) {
        tokens -= nextDdlTokens.getOrDefault(name, 0);
        nextDdl.remove(name);
        nextDdlTokens.remove(name);
        countColumns(old.get(), nextColumnDf, -1);
        old.get().module().ifPresent(touchedModules::add);
      }
      if (now.isPresent()) {
        tokens += describe(next, now.get(), nextDdl, nextDdlTokens);
        countColumns(now.get(), nextColumnDf, 1);
        now.get().module().ifPresent(touchedModules::add);
      }
      for (Chunk c : chunks.getOrDefault(name, List.of())) {
        nextKinds.merge(c.kind(), -1, Integer::sum);
        c.subject().filter(s -> c.kind() == ChunkKind.QUERY).ifPresent(s -> nextPatterns.remove(patternKey(name, s)));
      }
      List<Chunk> nowChunks = nextChunks.getOrDefault(name, List.of());
      for (Chunk c : nowChunks) {
        nextKinds.merge(c.kind(), 1, Integer::sum);
        c.subject().filter(s -> c.kind() == ChunkKind.QUERY).ifPresent(s -> nextPatterns.put(patternKey(name, s), c));
      }
      nextModuleOf.remove(name);
      if (!nowChunks.isEmpty()) {
        now.flatMap(Table::module).ifPresent(m -> nextModuleOf.put(name, m));
      }
    }
    nextKinds.values().removeIf(n -> n == 0);

    // Names of the changed tables and of those their keys touch(ed): a role is a foreign key of its table.
    Set<String> renamed = new LinkedHashSet<>(changed);
    for (String name : changed) {
      renamed.addAll(model.neighbours(name));
      renamed.addAll(next.neighbours(name));
    }
    NamedTables nextNamed = named.withTables(next, renamed, glossText(nextChunks, renamed), nextColumnDf);

    // The documents of the modules the changed tables left or joined, rebuilt from their tables' chunks.
    Set<String> nextModuleDocs = new LinkedHashSet<>(moduleDocs);
    Map<String, StringBuilder> moduleText = new LinkedHashMap<>();
    if (!touchedModules.isEmpty()) {
      for (Table t : next.tables()) {
        if (t.module().isPresent() && touchedModules.contains(t.module().get())) {
          for (Chunk c : nextChunks.getOrDefault(t.name(), List.of())) {
            if (inModuleText(c)) {
              moduleText.computeIfAbsent(t.module().get(), k -> new StringBuilder()).append(c.embedText()).append('\n');
            }
          }
        }
      }
    }
    for (String m : touchedModules) {
      if (moduleText.containsKey(m)) {
        nextModuleDocs.add(m);
      } else {
        nextModuleDocs.remove(m);
      }
    }
    LexicalIndex nextModuleIndex = moduleIndex;
    if (moduleIndex == null && nextModuleDocs.size() >= 2) {
      // A second module appeared: its index is built once, from every module's tables.
      nextModuleIndex = LexicalIndex.of(allModuleDocs(next, nextChunks), settings.bm25K1(), settings.bm25B());
    } else if (moduleIndex != null && !touchedModules.isEmpty()) {
      Map<String, List<LexicalIndex.Doc>> moduleDocsNow = new LinkedHashMap<>();
      for (String m : touchedModules) {
        StringBuilder text = moduleText.get(m);
        moduleDocsNow.put(m, text == null ? List.of() : List.of(moduleDoc(m, text.toString())));
      }
      nextModuleIndex = moduleIndex.withTables(moduleDocsNow);
    }
    LexicalIndex nextLexical = lexical.withTables(docs);
    return new SchemaIndex(this, next, nextLexical, nextDdl, nextDdlTokens, nextColumnDf, nextKinds, nextModuleIndex,
        Set.copyOf(nextModuleDocs), nextModuleOf, tokens, nextNamed, nextPatterns, nextChunks);
  }

  /** How many changes this index has had since it was built (0: as loaded). */
  public long version() {
    return version;
  }

  private static boolean inModuleText(Chunk c) {
    return c.kind() == ChunkKind.OVERVIEW || c.kind() == ChunkKind.COLUMN;
  }

  private static LexicalIndex.Doc moduleDoc(String module, String text) {
    return new LexicalIndex.Doc(module, module, LexicalIndex.MODULE, Optional.empty(), text);
  }

  private static List<LexicalIndex.Doc> allModuleDocs(SchemaModel model, Map<String, List<Chunk>> chunks) {
    Map<String, StringBuilder> text = new LinkedHashMap<>();
    for (Table t : model.tables()) {
      t.module().ifPresent(m -> {
        for (Chunk c : chunks.getOrDefault(t.name(), List.of())) {
          if (inModuleText(c)) {
            text.computeIfAbsent(m, k -> new StringBuilder()).append(c.embedText()).append('\n');
          }
        }
      });
    }
    return text.entrySet().stream().map(e -> moduleDoc(e.getKey(), e.getValue().toString())).toList();
  }

  /** Puts the table's compact DDL and its size in tokens; returns the size. */
  private static int describe(SchemaModel model, Table t, Map<String, String> ddl, Map<String, Integer> ddlTokens) {
    String d = Chunker.compactDdl(model, t);
    int tokens = Math.max(1, d.length() / 4);
    ddl.put(t.name(), d);
    ddlTokens.put(t.name(), tokens);
    return tokens;
  }

  /** Adds (or with -1 takes away) the table's distinct column names to the counts; a count that falls to 0 goes. */
  private static void countColumns(Table t, Map<String, Integer> df, int sign) {
    t.columns().stream().map(c -> normalizedColumn(c.name())).distinct()
        .forEach(n -> df.compute(n, (k, v) -> {
          int next = (v == null ? 0 : v) + sign;
          return next == 0 ? null : next;
        }));
  }

  /** A table's overview text holds what its comment and doc say of it: the glosses of its name. */
  private static Map<String, String> glossText(Map<String, List<Chunk>> chunks, Collection<String> tables) {
    Map<String, String> out = new HashMap<>();
    for (String t : tables) {
      for (Chunk c : chunks.getOrDefault(t, List.of())) {
        if (c.kind() == ChunkKind.OVERVIEW) {
          out.put(t, c.embedText());
        }
      }
    }
    return out;
  }

  private static String patternKey(String table, String name) {
    return table + '\n' + name;
  }

  /** The query pattern a dense hit names, when this index holds it. */
  Optional<PatternMatch> pattern(String table, String name, double similarity) {
    Chunk c = patterns.get(patternKey(table, name));
    return c == null ? Optional.empty()
        : Optional.of(new PatternMatch(table, name, similarity, Chunker.patternSql(c), c.promptText()));
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
    return new SchemaIndex(view.restrict(model), chunks.values().stream().flatMap(List::stream).filter(view::keeps).toList(), settings);
  }
}
