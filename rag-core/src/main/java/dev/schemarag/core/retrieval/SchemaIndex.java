package dev.schemarag.core.retrieval;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.LexicalIndex;
import dev.schemarag.core.search.SchemaAnalyzer;
import dev.schemarag.core.sql.SqlGuard;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pcollections.HashTreePMap;
import org.pcollections.OrderedPMap;
import org.pcollections.OrderedPSet;
import org.pcollections.PMap;
import org.pcollections.PSet;

/**
 * What the engine keeps in memory for one database: the schema model, the lexical index, the
 * compact DDL of every table and how specific each column name is. Immutable: a change to a few
 * tables gives a new version ({@link #withTables}) that shares what did not change, so a question
 * holding a version never sees a half-applied change, and a change costs what its tables cost,
 * not the whole schema.
 */
public final class SchemaIndex {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SchemaIndex.class);

  /**
   * One table as it is now: its catalog entry (empty: the table is gone), every foreign key touching
   * it in either direction, its stored chunks, and the vectors of their searched texts by
   * {@link ChunkVectors#key} (needed when the index holds vectors, {@link #vectors()}).
   */
  public record TableChange(String table, Optional<Table> definition, List<ForeignKey> edges, List<Chunk> chunks,
                            Map<String, float[]> vectors) {
    public TableChange {
      edges = List.copyOf(edges);
      chunks = List.copyOf(chunks);
      vectors = Map.copyOf(vectors);
      for (Chunk c : chunks) {
        if (!c.table().equals(table)) {
          throw new IllegalArgumentException("chunk " + c.id() + " is of table " + c.table() + ", not " + table);
        }
      }
    }

    /** A change without vectors: for an index that searches the store. */
    public TableChange(String table, Optional<Table> definition, List<ForeignKey> edges, List<Chunk> chunks) {
      this(table, definition, edges, chunks, Map.of());
    }
  }

  final SchemaModel model;
  final LexicalIndex lexical;
  final PMap<String, String> ddl;
  final PMap<String, Integer> ddlTokens;
  /** Column name (normalized) -> number of tables that have it. */
  final PMap<String, Integer> columnDf;
  final Set<ChunkKind> kinds;
  private final Map<ChunkKind, Integer> kindCounts;
  /** BM25 over one document per module (its tables' and columns' names and texts); empty without modules. */
  final Optional<LexicalIndex> modules;
  /** The module index even while it holds fewer than two modules (then not searched); null until a second module appears. */
  private final LexicalIndex moduleIndex;
  /** Modules that have a document (some table of theirs has a table or column chunk). */
  private final Set<String> moduleDocs;
  final PMap<String, String> moduleOf;
  /** Per module, its tables in the model's order: to rebuild a module's document from its tables alone. */
  private final PMap<String, PSet<String>> tablesOfModule;
  final int schemaTokens;
  /** Which tables a question names. */
  final NamedTables named;
  /** Query-pattern chunks by table and pattern name: dense hits name them, the packet carries their SQL. */
  private final PMap<String, StoredPattern> patterns;
  /** What it was built from, by table: to update it, and to build a role's view of it ({@link #restrictedTo}). */
  private final PMap<String, List<Chunk>> chunks;
  private final RetrievalSettings settings;
  private final long version;
  /** The searched chunks' vectors when the index holds them ({@link #withVectors}); empty: dense search goes to the store. */
  private final Optional<ChunkVectors> vectors;
  /** Tables that are copies of one another, in several schemas. */
  private final TableCopies copies;
  /**
   * Each acronym's readings ({@link Acronyms#readings}), found once per version: finding them scans
   * every table and column name. A new version keeps those no changed table can alter.
   */
  private final Map<String, Set<String>> acronymReadings = new java.util.concurrent.ConcurrentHashMap<>();
  /** Acronyms kept at most: a question can write any capitals. */
  static final int ACRONYMS_KEPT = 10_000;
  /** The vectors of the names' words, shared with every version and view made from this one. */
  private NameWords nameWords = new NameWords();
  /** This version's name words with their vectors, gathered the first time a question needs them. */
  private volatile NameWords.Vocabulary names;
  /**
   * An earlier version's vocabulary and the name words of the tables changed since: what this
   * version's is made from, without reading every name again (at 10,000 tables that read would fall
   * on the first question after a change). A removed table's words stay: they find nothing.
   */
  private NameWords.Vocabulary namesBefore;
  private Set<String> namesAdded = Set.of();
  /** Each judged table's own words ({@link #wordsOf}), found the first time a question judges it; at most one entry per table. */
  private final Map<String, Set<String>> tableWords = new java.util.concurrent.ConcurrentHashMap<>();

  public SchemaIndex(SchemaModel model, List<Chunk> chunks, RetrievalSettings settings) {
    this.model = model;
    this.settings = settings;
    this.version = 0;
    this.vectors = Optional.empty();
    Map<String, List<Chunk>> byTable = new LinkedHashMap<>();
    chunks.forEach(c -> byTable.computeIfAbsent(c.table(), k -> new ArrayList<>()).add(c));
    byTable.replaceAll((t, cs) -> List.copyOf(cs));
    this.chunks = OrderedPMap.<String, List<Chunk>>empty().plusAll(byTable);
    this.lexical = new LexicalIndex(chunks, settings.bm25K1(), settings.bm25B());
    this.kindCounts = new EnumMap<>(ChunkKind.class);
    chunks.forEach(c -> kindCounts.merge(c.kind(), 1, Integer::sum));
    this.kinds = Collections.unmodifiableSet(kindCounts.keySet());
    Map<String, String> ddl = new HashMap<>();
    Map<String, Integer> ddlTokens = new HashMap<>();
    Map<String, Integer> columnDf = new HashMap<>();
    Map<String, PSet<String>> tablesOfModule = new HashMap<>();
    int total = 0;
    for (Table t : model.tables()) {
      total += describe(model, t, chunksOf(byTable, t.name()), ddl, ddlTokens);
      countColumns(t, columnDf, 1);
      t.module().ifPresent(m -> tablesOfModule.merge(m, OrderedPSet.singleton(t.name()), (a, b) -> a.plusAll(b)));
    }
    this.ddl = HashTreePMap.from(ddl);
    this.ddlTokens = HashTreePMap.from(ddlTokens);
    this.columnDf = HashTreePMap.from(columnDf);
    this.tablesOfModule = HashTreePMap.from(tablesOfModule);
    this.schemaTokens = total;
    Map<String, StringBuilder> moduleText = new LinkedHashMap<>();
    Map<String, String> moduleOf = new HashMap<>();
    Map<String, StoredPattern> patterns = new HashMap<>();
    for (Chunk c : chunks) {
      if (c.kind() == ChunkKind.QUERY) {
        c.subject().ifPresent(name -> patterns.put(patternKey(c.table(), name), StoredPattern.of(c)));
      }
      model.table(c.table()).flatMap(Table::module).ifPresent(m -> {
        moduleOf.put(c.table(), m);
        if (inModuleText(c)) {
          moduleText.computeIfAbsent(m, k -> new StringBuilder()).append(c.embedText()).append('\n');
        }
      });
    }
    this.moduleOf = HashTreePMap.from(moduleOf);
    this.patterns = HashTreePMap.from(patterns);
    this.named = new NamedTables(model, glossText(byTable, byTable.keySet()), this.columnDf, valuesOf(byTable, byTable.keySet()));
    this.moduleDocs = Set.copyOf(moduleText.keySet());
    this.moduleIndex = moduleText.size() < 2 ? null : LexicalIndex.of(moduleText.entrySet().stream()
        .map(e -> moduleDoc(e.getKey(), e.getValue().toString())).toList(), settings.bm25K1(), settings.bm25B());
    this.modules = Optional.ofNullable(moduleIndex);
    this.copies = TableCopies.of(model);
  }

  private SchemaIndex(SchemaIndex before, SchemaModel model, LexicalIndex lexical, PMap<String, String> ddl, PMap<String, Integer> ddlTokens,
                      PMap<String, Integer> columnDf, Map<ChunkKind, Integer> kindCounts, LexicalIndex moduleIndex, Set<String> moduleDocs,
                      PMap<String, String> moduleOf, PMap<String, PSet<String>> tablesOfModule, int schemaTokens, NamedTables named,
                      PMap<String, StoredPattern> patterns, PMap<String, List<Chunk>> chunks, Optional<ChunkVectors> vectors,
                      TableCopies copies, long version) {
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
    this.tablesOfModule = tablesOfModule;
    this.schemaTokens = schemaTokens;
    this.named = named;
    this.patterns = patterns;
    this.chunks = chunks;
    this.settings = before.settings;
    this.version = version;
    this.vectors = vectors;
    this.copies = copies;
    this.nameWords = before.nameWords;
  }

  /**
   * Embeds the model's English words that questions compare with the schema's name words
   * ({@link NameWords}), for a service to run at start rather than its first questions; stops
   * between batches when {@code stop} says so. Returns how many words it embedded.
   */
  public static int preloadNameWordVectors(Embedder embedder, java.util.function.BooleanSupplier stop) {
    return NameWords.preload(embedder, stop);
  }

  /**
   * The name words to search lexically beside a question's words that the schema's text does not
   * know, with their weights ({@link NameWords}); empty when it knows every word, without a call to the model.
   */
  Map<String, Double> nameWordsNear(String question, Embedder embedder) {
    List<String> unknown = NameWords.unknown(question, lexical::knows);
    if (unknown.isEmpty()) {
      return Map.of();
    }
    return NameWords.nearest(unknown, names(embedder), embedder);
  }

  /**
   * Gives this version its name words' vectors now, so that its first question with a word the
   * schema never says does not embed them (a large schema has thousands); returns how many
   * name words it holds.
   */
  public int prepareNameWords(Embedder embedder) {
    return names(embedder).words().length;
  }

  private NameWords.Vocabulary names(Embedder embedder) {
    NameWords.Vocabulary n = names;
    if (n == null) {
      n = namesBefore == null ? nameWords.vocabulary(NameWords.of(model), embedder) : nameWords.extended(namesBefore, namesAdded, embedder);
      names = n;
    }
    return n;
  }

  /**
   * This index holding its searched chunks' vectors, so that dense search runs in memory
   * ({@link #denseOr}); changes must then carry their vectors ({@link TableChange#vectors}).
   *
   * @param vectors by {@link ChunkVectors#key}, for every searched text of this index's chunks
   * @throws ChunkVectors.MissingVectors when a text has none
   */
  public SchemaIndex withVectors(Map<String, float[]> vectors) throws ChunkVectors.MissingVectors {
    ChunkVectors v = ChunkVectors.of(chunks.values().stream().flatMap(List::stream).toList(), vectors);
    SchemaIndex out = new SchemaIndex(this, model, lexical, ddl, ddlTokens, columnDf, kindCounts, moduleIndex, moduleDocs, moduleOf,
        tablesOfModule, schemaTokens, named, patterns, chunks, Optional.of(v), copies, version);
    acronymReadings.forEach(out.acronymReadings::put);
    out.tableWords.putAll(tableWords);
    out.names = names;
    out.namesBefore = namesBefore;
    out.namesAdded = namesAdded;
    return out;
  }

  /**
   * The stems of a table's own words: its name without the module's prefix, its comment and its column names
   * (not their comments, sentences that would give every table most words). What a question word can find in the
   * table itself, for {@link TableSelector}'s count of the words a table is the first to explain.
   */
  Set<String> wordsOf(String table) {
    Set<String> known = tableWords.get(table);
    if (known != null) {
      return known;
    }
    Set<String> words = model.table(table).map(SchemaIndex::ownWords).orElse(Set.of());
    tableWords.put(table, words);
    return words;
  }

  private static Set<String> ownWords(Table t) {
    Set<String> words = new HashSet<>(SchemaAnalyzer.stems(Chunker.localWords(t.name(), t.module())));
    t.comment().ifPresent(c -> words.addAll(SchemaAnalyzer.stems(c)));
    t.columns().forEach(c -> words.addAll(SchemaAnalyzer.stems(c.name())));
    return Set.copyOf(words);
  }

  /** The vectors this index holds, if it holds them. */
  public Optional<ChunkVectors> vectors() {
    return vectors;
  }

  /** The dense search of this index: over the vectors it holds, else {@code store}'s. */
  public DenseSearch denseOr(DenseSearch store) {
    return vectors.isPresent() ? vectors.get() : store;
  }

  /** The readings of an acronym (lower case) in this version's schema; {@code ownUse}: the schema's text has it as a word. */
  Set<String> acronymReadings(String letters, boolean ownUse) {
    String key = (ownUse ? "+" : "-") + letters;
    Set<String> known = acronymReadings.get(key);
    if (known != null) {
      return known;
    }
    Set<String> readings = Acronyms.readings(letters, model, ownUse);
    if (!ownUse) {
      // Values of the data too ("CEO": the job title "Chief Executive Officer"), when the schema's text has no such word.
      readings.addAll(named.valueReadings(letters));
    }
    Set<String> found = Collections.unmodifiableSet(readings);
    if (acronymReadings.size() < ACRONYMS_KEPT) {
      acronymReadings.put(key, found);
    }
    return found;
  }

  /** Carries to {@code next} the acronym readings the changed tables (as they were and as they are) cannot alter. */
  private void carryAcronyms(SchemaIndex next, Collection<Optional<Table>> changedTables, Collection<String> changed) {
    Set<String> touched = new java.util.HashSet<>();
    changedTables.forEach(t -> t.ifPresent(table -> touched.addAll(Acronyms.lettersOf(table))));
    for (String name : changed) {
      touched.addAll(named.valueAcronymsOf(name));
      touched.addAll(next.named.valueAcronymsOf(name));
    }
    acronymReadings.forEach((key, readings) -> {
      if (!touched.contains(key.substring(1))) {
        next.acronymReadings.put(key, readings);
      }
    });
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
    PMap<String, List<Chunk>> nextChunks = chunks;
    Map<String, List<LexicalIndex.Doc>> docs = new LinkedHashMap<>();
    for (TableChange c : changes) {
      if (definitions.put(c.table(), c.definition()) != null) {
        throw new IllegalArgumentException("table " + c.table() + " is changed twice in one step");
      }
      edges.addAll(c.edges());
      nextChunks = c.chunks().isEmpty() ? nextChunks.minus(c.table()) : nextChunks.plus(c.table(), c.chunks());
      docs.put(c.table(), LexicalIndex.docsOf(c.chunks()));
    }
    SchemaModel next = model.withTables(definitions, edges);
    Set<String> changed = definitions.keySet();

    PMap<String, String> nextDdl = ddl;
    PMap<String, Integer> nextDdlTokens = ddlTokens;
    Map<String, Integer> dfChanges = new HashMap<>();
    Map<ChunkKind, Integer> nextKinds = new EnumMap<>(kindCounts);
    PMap<String, String> nextModuleOf = moduleOf;
    PMap<String, PSet<String>> nextTablesOfModule = tablesOfModule;
    PMap<String, StoredPattern> nextPatterns = patterns;
    int tokens = schemaTokens;
    Set<String> touchedModules = new LinkedHashSet<>();
    for (String name : changed) {
      Optional<Table> old = model.table(name);
      Optional<Table> now = next.table(name);
      Optional<String> oldModule = old.flatMap(Table::module);
      Optional<String> newModule = now.flatMap(Table::module);
      if (old.isPresent()) {
        tokens -= ddlTokens.getOrDefault(name, 0);
        nextDdl = nextDdl.minus(name);
        nextDdlTokens = nextDdlTokens.minus(name);
        countColumns(old.get(), dfChanges, -1);
        oldModule.ifPresent(touchedModules::add);
      }
      if (now.isPresent()) {
        String d = Chunker.compactDdl(next, now.get(), sampledValues(chunksOf(nextChunks, name)));
        int t = ddlTokens(d);
        nextDdl = nextDdl.plus(name, d);
        nextDdlTokens = nextDdlTokens.plus(name, t);
        tokens += t;
        countColumns(now.get(), dfChanges, 1);
        newModule.ifPresent(touchedModules::add);
      }
      if (!oldModule.equals(newModule)) {
        // A table keeps its place in its module while it stays there, as in the model.
        if (oldModule.isPresent()) {
          PSet<String> left = nextTablesOfModule.get(oldModule.get()).minus(name);
          nextTablesOfModule = left.isEmpty() ? nextTablesOfModule.minus(oldModule.get()) : nextTablesOfModule.plus(oldModule.get(), left);
        }
        if (newModule.isPresent()) {
          PSet<String> joined = nextTablesOfModule.getOrDefault(newModule.get(), OrderedPSet.empty());
          nextTablesOfModule = nextTablesOfModule.plus(newModule.get(), joined.plus(name));
        }
      }
      for (Chunk c : chunksOf(chunks, name)) {
        nextKinds.merge(c.kind(), -1, Integer::sum);
        if (c.kind() == ChunkKind.QUERY && c.subject().isPresent()) {
          nextPatterns = nextPatterns.minus(patternKey(name, c.subject().get()));
        }
      }
      List<Chunk> nowChunks = chunksOf(nextChunks, name);
      for (Chunk c : nowChunks) {
        nextKinds.merge(c.kind(), 1, Integer::sum);
        if (c.kind() == ChunkKind.QUERY && c.subject().isPresent()) {
          nextPatterns = nextPatterns.plus(patternKey(name, c.subject().get()), StoredPattern.of(c));
        }
      }
      nextModuleOf = nextModuleOf.minus(name);
      if (!nowChunks.isEmpty() && newModule.isPresent()) {
        nextModuleOf = nextModuleOf.plus(name, newModule.get());
      }
    }
    nextKinds.values().removeIf(n -> n == 0);
    PMap<String, Integer> nextColumnDf = columnDf;
    for (Map.Entry<String, Integer> e : dfChanges.entrySet()) {
      int n = columnDf.getOrDefault(e.getKey(), 0) + e.getValue();
      nextColumnDf = n == 0 ? nextColumnDf.minus(e.getKey()) : nextColumnDf.plus(e.getKey(), n);
    }

    // Names of the changed tables and of those their keys touch(ed): a role is a foreign key of its table.
    Set<String> renamed = new LinkedHashSet<>(changed);
    for (String name : changed) {
      renamed.addAll(model.neighbours(name));
      renamed.addAll(next.neighbours(name));
    }
    NamedTables nextNamed = named.withTables(next, renamed, glossText(nextChunks, renamed), nextColumnDf, valuesOf(nextChunks, renamed));

    // The documents of the modules the changed tables left or joined, rebuilt from their tables' chunks.
    Set<String> nextModuleDocs = new LinkedHashSet<>(moduleDocs);
    Map<String, StringBuilder> moduleText = new LinkedHashMap<>();
    for (String m : touchedModules) {
      for (String table : nextTablesOfModule.getOrDefault(m, OrderedPSet.empty())) {
        for (Chunk c : chunksOf(nextChunks, table)) {
          if (inModuleText(c)) {
            moduleText.computeIfAbsent(m, k -> new StringBuilder()).append(c.embedText()).append('\n');
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
    Optional<ChunkVectors> nextVectors = Optional.empty();
    if (vectors.isPresent()) {
      Map<String, float[]> given = new HashMap<>();
      changes.forEach(c -> given.putAll(c.vectors()));
      try {
        nextVectors = Optional.of(vectors.get().with(changed, changes.stream().flatMap(c -> c.chunks().stream()).toList(), given));
      } catch (ChunkVectors.MissingVectors e) {
        // Without them the new version searches the store: slower but right, where held vectors lacking these texts would not be.
        LOG.warn("the new version of the index of {} holds no vectors: {}", model.databaseId(), e.getMessage());
      }
    }
    SchemaIndex updated = new SchemaIndex(this, next, nextLexical, nextDdl, nextDdlTokens, nextColumnDf, nextKinds, nextModuleIndex,
        Set.copyOf(nextModuleDocs), nextModuleOf, nextTablesOfModule, tokens, nextNamed, nextPatterns, nextChunks, nextVectors,
        copies.with(next, changed), version + 1);
    List<Optional<Table>> wereAndAre = new ArrayList<>();
    for (String name : changed) {
      wereAndAre.add(model.table(name));
      wereAndAre.add(next.table(name));
    }
    carryAcronyms(updated, wereAndAre, changed);
    NameWords.Vocabulary known = names;
    updated.namesBefore = known != null ? known : namesBefore;
    if (updated.namesBefore != null) {
      Set<String> added = new LinkedHashSet<>(known != null ? Set.of() : namesAdded);
      added.addAll(NameWords.of(changed.stream().map(next::table).flatMap(Optional::stream).toList()));
      updated.namesAdded = added;
    }
    tableWords.forEach((table, words) -> {
      if (!changed.contains(table)) {
        updated.tableWords.put(table, words);
      }
    });
    updated.warm(changed);
    return updated;
  }

  /**
   * Searches a new version once before it serves questions, with the changed tables' names as the
   * question: the first search of a reader with new segments and deletions pays for what later ones
   * find ready (Lucene's {@code SearcherFactory} warms a new searcher for the same reason), and this
   * runs in the thread that builds the version, not in the next question's.
   */
  private void warm(Collection<String> tables) {
    String text = String.join(" ", tables).replace('_', ' ').replace('.', ' ');
    lexical.respelled(text);
    lexical.search(text, ChunkKind.OVERVIEW, 10);
    lexical.search(text, ChunkKind.COLUMN, 10);
    modules.ifPresent(m -> m.search(text, LexicalIndex.MODULE, 5));
  }

  /** A table's chunks (none for a table without); {@code getOrDefault} would scan an ordered persistent map for a table it lacks. */
  private static List<Chunk> chunksOf(Map<String, List<Chunk>> chunks, String table) {
    List<Chunk> cs = chunks.get(table);
    return cs == null ? List.of() : cs;
  }

  /** Whether the table's column chunk carries values sampled from the data ({@link Chunker#columnValues}). */
  boolean sampled(String table, String column) {
    for (Chunk c : chunksOf(chunks, table)) {
      if (c.kind() == ChunkKind.COLUMN && c.subject().filter(column::equals).isPresent()) {
        return !Chunker.columnValues(c).isEmpty();
      }
    }
    return false;
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
        for (Chunk c : chunksOf(chunks, t.name())) {
          if (inModuleText(c)) {
            text.computeIfAbsent(m, k -> new StringBuilder()).append(c.embedText()).append('\n');
          }
        }
      });
    }
    return text.entrySet().stream().map(e -> moduleDoc(e.getKey(), e.getValue().toString())).toList();
  }

  /** Puts the table's compact DDL and its size in tokens; returns the size. */
  private static int describe(SchemaModel model, Table t, List<Chunk> chunks, Map<String, String> ddl, Map<String, Integer> ddlTokens) {
    String d = Chunker.compactDdl(model, t, sampledValues(chunks));
    int tokens = ddlTokens(d);
    ddl.put(t.name(), d);
    ddlTokens.put(t.name(), tokens);
    return tokens;
  }

  /** The values sampled from the data that a table's column chunks carry, by column (see {@link Chunker#columnValues}). */
  private static Map<String, String> sampledValues(List<Chunk> chunks) {
    Map<String, String> out = new HashMap<>();
    for (Chunk c : chunks) {
      String values = Chunker.columnValues(c);
      if (!values.isEmpty()) {
        out.put(c.subject().orElseThrow(), values);
      }
    }
    return out;
  }

  /** A compact DDL's size in tokens, roughly. */
  private static int ddlTokens(String ddl) {
    return Math.max(1, ddl.length() / 4);
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
      for (Chunk c : chunksOf(chunks, t)) {
        if (c.kind() == ChunkKind.OVERVIEW) {
          out.put(t, c.embedText());
        }
      }
    }
    return out;
  }

  /** Per table that has some, the values sampled from its data that its column chunks carry, each value apart. */
  private static Map<String, List<String>> valuesOf(Map<String, List<Chunk>> chunks, Collection<String> tables) {
    Map<String, List<String>> out = new HashMap<>();
    for (String t : tables) {
      List<String> values = new ArrayList<>();
      for (String line : sampledValues(chunksOf(chunks, t)).values()) {
        values.addAll(Chunker.splitValues(line));
      }
      if (!values.isEmpty()) {
        out.put(t, values);
      }
    }
    return out;
  }

  private static String patternKey(String table, String name) {
    return table + '\n' + name;
  }

  /** The query pattern a dense hit names, when this index holds it. */
  Optional<PatternMatch> pattern(String table, String name, double similarity) {
    StoredPattern p = patterns.get(patternKey(table, name));
    return p == null ? Optional.empty()
        : Optional.of(new PatternMatch(table, name, similarity, Chunker.patternSql(p.chunk()), p.chunk().promptText()));
  }

  /**
   * The tables a query pattern's SQL reads that this version's model holds (the pattern's own table among
   * them); empty when this index holds no such pattern or its SQL is no statement the guard allows.
   */
  List<String> patternTables(String table, String name) {
    StoredPattern p = patterns.get(patternKey(table, name));
    return p == null ? List.of() : p.tables().stream().filter(t -> model.table(t).isPresent()).toList();
  }

  /** A query pattern's chunk and the tables its SQL reads, read once when the chunk is indexed. */
  private record StoredPattern(Chunk chunk, List<String> tables) {
    static StoredPattern of(Chunk c) {
      return new StoredPattern(c, SqlGuard.tablesRead(Chunker.patternSql(c)));
    }
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

  /**
   * The unit of each of these modules: modules that a foreign key joins (directly, one to the other)
   * fall into one unit, named by its first module in the given order; see {@link TableSelector}.
   */
  Map<String, String> unitsOf(List<String> modules) {
    Map<String, String> parent = new HashMap<>();
    for (String m : modules) {
      parent.putIfAbsent(m, m);
    }
    for (String m : parent.keySet().toArray(String[]::new)) {
      PSet<String> tables = tablesOfModule.get(m);
      if (tables == null) {
        continue;
      }
      for (String t : tables) {
        for (ForeignKey fk : model.edges(t)) {
          String other = moduleOf.get(fk.other(t));
          if (other != null && !other.equals(m) && parent.containsKey(other)) {
            union(parent, m, other, modules);
          }
        }
      }
    }
    Map<String, String> out = new HashMap<>();
    parent.keySet().forEach(m -> out.put(m, root(parent, m)));
    return out;
  }

  private static String root(Map<String, String> parent, String m) {
    String r = m;
    while (!parent.get(r).equals(r)) {
      r = parent.get(r);
    }
    return r;
  }

  /** Joins two units under the root that comes first in {@code order}. */
  private static void union(Map<String, String> parent, String a, String b, List<String> order) {
    String ra = root(parent, a);
    String rb = root(parent, b);
    if (!ra.equals(rb)) {
      if (order.indexOf(ra) <= order.indexOf(rb)) {
        parent.put(rb, ra);
      } else {
        parent.put(ra, rb);
      }
    }
  }

  public SchemaModel model() {
    return model;
  }

  /** The tables of a module, in the order the schema lists them; none for a module the schema does not have. */
  Set<String> tablesOf(String module) {
    PSet<String> tables = tablesOfModule.get(module);
    return tables == null ? Set.of() : tables;
  }

  /** The tables that are copies of one another (in several schemas). */
  TableCopies copies() {
    return copies;
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
    SchemaIndex restricted = new SchemaIndex(view.restrict(model), chunks.values().stream().flatMap(List::stream).filter(view::keeps).toList(), settings);
    restricted.nameWords = nameWords;
    return restricted;
  }
}
