package dev.schemarag.core.retrieval;

import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.LexicalIndex;
import dev.schemarag.core.search.SchemaAnalyzer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Fused schema retrieval: dense (pgvector) and lexical (BM25) search over table and column
 * chunks, column evidence aggregated per table, score fusion, a packet of the tables the
 * {@link TableSelector} judges needed (or, for a model with no fitted selector, a packet sized by
 * score gaps with relevance-gated FK expansion), what the question names, and join bridges.
 */
public final class SchemaRetriever {

  static final int DENSE_TABLES = 60;
  static final int DENSE_COLUMNS = 200;
  static final int LEXICAL_TABLES = 60;
  static final int LEXICAL_COLUMNS = 200;
  static final int QUERY_PATTERNS = 20;
  /** Modules all of whose tables are candidates, and at most how many tables of each. */
  static final int ROUTED_MODULES = 2;
  static final int ROUTED_TABLES = 40;
  /** Tables no search returned that keep their place in the ranking; the others move to its end. */
  static final int ROUTED_IN_PLACE = 6;
  /** Worked examples a packet carries at most. */
  static final int PACKET_PATTERNS = 3;
  /** Named tables a packet takes at most. */
  static final int MAX_NAMED = 6;
  /** How far (FK hops) a named table of another module may be from the packet and still join it. */
  static final int NAMED_HOPS = 2;
  /** Leading packet tables whose rows a "who" question needs named. */
  static final int LEADING = 3;
  /** Overview chunks fetched per phrase of the question (as measured); the nearest is the phrase's table. */
  static final int PHRASE_TABLES = 3;
  /** Bridge tables added at most to make a packet joinable. */
  static final int MAX_BRIDGES = 4;

  private final SchemaIndex index;
  private final DenseSearch dense;
  private final Embedder embedder;
  private final RetrievalSettings settings;

  public SchemaRetriever(SchemaIndex index, DenseSearch dense, Embedder embedder, RetrievalSettings settings) {
    this.index = index;
    this.dense = dense;
    this.embedder = embedder;
    this.settings = settings;
  }

  /** How these settings choose a packet's tables, for reports: "learned, threshold 0.010" or "evidence". */
  public String packetSelection(RetrievalSettings s) {
    return selector(s).map(t -> String.format(java.util.Locale.ROOT, "learned, threshold %.3f", t.threshold())).orElse("evidence");
  }

  /** The selector these settings ask for, or empty for the evidence sizer. */
  Optional<TableSelector> selector(RetrievalSettings s) {
    if (s.selector() == RetrievalSettings.SELECTOR_EVIDENCE) {
      return Optional.empty();
    }
    // Read only when asked for: fitting new weights must work while the bundled ones are stale.
    return SelectorModel.forModel(embedder.modelId()).map(w -> new TableSelector(w, s.selector() > 0 ? s.selector() : w.threshold()));
  }

  public RetrievalSettings settings() {
    return settings;
  }

  /** Retrieval with the configured settings. */
  public SchemaContextPacket retrieve(String question) {
    return retrieve(question, settings);
  }

  public SchemaContextPacket retrieve(String question, RetrievalSettings s) {
    return retrieveWithEvidence(question, s).packet();
  }

  /**
   * The packet and the per-table evidence behind it (for evaluation, diagnostics and fitting the
   * selector): {@code judged} holds the ranking's leading tables with their selector features, in
   * ranking order, and their probabilities (NaN without fitted weights); empty when the question was
   * refused or the schema is small.
   */
  public record Result(SchemaContextPacket packet, List<TableEvidence> evidence, Map<String, Double> moduleScores,
                       List<TableSelector.Candidate> judged) {}

  public Result retrieveWithEvidence(String asked, RetrievalSettings s) {
    if (asked == null || asked.isBlank()) {
      throw new IllegalArgumentException("the question is empty");
    }
    SchemaModel model = index.model;
    Timings time = new Timings();
    Map<String, Long> metrics = new LinkedHashMap<>();
    // A misspelt word the schema does not know would match nothing lexically and no name; retrieval
    // reads the question with it respelt, the packet keeps the question as asked.
    String respelled = index.lexical.respelled(asked);
    metrics.put("respelled", respelled.equals(asked) ? 0L : 1L);
    // An acronym of the schema's names ("POs" for purchase_orders) is read with the names' words beside it.
    String question = Acronyms.expanded(respelled, index.lexical::knows, index::acronymReadings);
    metrics.put("acronyms_read", question.equals(respelled) ? 0L : 1L);

    float[] q = embedder.embed(question);
    // A word the schema's text never says is searched lexically as the name words nearest to it ("vendors": supplier).
    Map<String, Double> nameWords = index.nameWordsNear(question, embedder);
    metrics.put("name_words_searched", (long) nameWords.size());
    time.lap("embed");
    // Lexical search needs no vector: it runs while the dense queries wait on the database. Not while the
    // question is embedded: the in-process model computes on every core, and a search beside it on a
    // small machine made the embedding wait for the core it took (14 against 9 ms at 10,000 tables).
    CompletableFuture<LexicalResult> lexicalFuture = CompletableFuture.supplyAsync(() -> lexical(question, nameWords), LEXICAL_POOL);

    Map<String, TableEvidence> ev = new HashMap<>();
    List<DenseSearch.Hit> dTables = dense.nearest(ChunkKind.OVERVIEW, q, DENSE_TABLES);
    List<DenseSearch.Hit> dColumns = dense.nearest(ChunkKind.COLUMN, q, DENSE_COLUMNS);
    List<DenseSearch.Hit> dQueries = index.kinds.contains(ChunkKind.QUERY) ? dense.nearest(ChunkKind.QUERY, q, QUERY_PATTERNS) : List.of();
    time.lap("dense");
    LexicalResult lex = lexicalFuture.join();
    List<LexicalIndex.Hit> lTables = lex.tables();
    List<LexicalIndex.Hit> lColumns = lex.columns();
    Map<String, Double> moduleScores = lex.modules();
    time.lap("lexical");
    routeModules(ev, moduleScores);

    for (DenseSearch.Hit h : dTables) {
      evidence(ev, h.table()).denseTable = h.similarity();
    }
    // A column text that copies of one table share comes back once for each copy: its name's specificity is looked up once.
    Map<String, Double> specificity = new HashMap<>();
    for (DenseSearch.Hit h : dColumns) {
      String col = h.subject().orElse("");
      evidence(ev, h.table()).denseColumns.add(new TableEvidence.ColumnHit(col, h.similarity(),
          specificity.computeIfAbsent(col, index::specificity), index.sampled(h.table(), col)));
    }
    for (DenseSearch.Hit h : dQueries) {
      TableEvidence e = evidence(ev, h.table());
      e.denseQuery = Double.isNaN(e.denseQuery) ? h.similarity() : Math.max(e.denseQuery, h.similarity());
    }
    for (LexicalIndex.Hit h : lTables) {
      evidence(ev, h.table()).lexicalTable = h.score();
    }
    for (LexicalIndex.Hit h : lColumns) {
      String col = h.subject().orElse("");
      evidence(ev, h.table()).lexicalColumns.add(new TableEvidence.ColumnHit(col, h.score(), index.specificity(col)));
    }
    metrics.put("candidates_dense", (long) distinctTables(dTables, dColumns));
    metrics.put("candidates_lexical", lTables.stream().map(LexicalIndex.Hit::table).distinct().count()
        + lColumns.stream().map(LexicalIndex.Hit::table).filter(t -> lTables.stream().noneMatch(x -> x.table().equals(t))).distinct().count());
    metrics.put("candidates", (long) ev.size());

    // Copies of one table in many schemas must not fill the places the selector judges.
    List<TableEvidence> ranked = fewUnfoundFirst(index.copies().fewFirst(
        ScoreFusion.fuse(ev.values(), dTables, dColumns, lTables, lColumns, index.moduleOf, moduleScores)));
    time.lap("fuse");

    List<RankedTable> ranking = ranking(ranked);
    List<TableSelector.Candidate> judged = List.of();

    List<PacketTable> tables = new ArrayList<>();
    boolean full = false;
    int fkAdded = 0;
    int fkBlocked = 0;
    int namedAdded = 0;
    int patternAdded = 0;
    int phraseAdded = 0;
    int bridgesAdded = 0;
    Optional<TableEvidence> closest = RelevanceGate.closest(ranked);
    List<String> stems = SchemaAnalyzer.stems(question);
    Optional<String> oneWord = RelevanceGate.oneWord(question);
    RelevanceGate.Verdict verdict = RelevanceGate.judge(closest, s.relevanceGate(), RelevanceGate.wordless(stems),
        oneWord, AssistantInstructions.find(question), () -> relevanceOfParts(question),
        () -> namesATable(stems, ranked) || oneWord.isPresent() && inATableName(stems, ranked));
    double worldMargin = s.worldMargin();
    if (s.relevanceGate() > 0 && worldMargin > 0) {
      // Always measured (a dot product per world question) so that calibration can weigh it at any gate.
      WorldQuestions.Closeness world = WorldQuestions.of(embedder).closeness(q);
      metrics.put("world_milli", Math.round(world.score() * 1000));
      verdict = RelevanceGate.world(verdict, closest.map(TableEvidence::table), s.relevanceGate(), worldMargin, world);
    }
    Optional<SchemaContextPacket.Refusal> refusal = verdict.refusal();
    metrics.put("relevance_milli", Math.round(verdict.relevance() * 1000));
    metrics.put("names_table", verdict.namesATable() ? 1L : 0L);
    metrics.put("wordless", refusal.map(SchemaContextPacket.Refusal::wordless).orElse(false) ? 1L : 0L);
    metrics.put("instruction", refusal.map(r -> r.reason() == SchemaContextPacket.Refusal.Reason.INSTRUCTION).orElse(false) ? 1L : 0L);
    metrics.put("one_word", refusal.map(r -> r.reason() == SchemaContextPacket.Refusal.Reason.ONE_WORD).orElse(false) ? 1L : 0L);
    metrics.put("world", refusal.map(r -> r.reason() == SchemaContextPacket.Refusal.Reason.WORLD).orElse(false) ? 1L : 0L);
    if (refusal.isPresent()) {
      time.lap("size");
    } else if (model.size() < s.smallSchemaTables() || ranked.isEmpty()) {
      full = true;
      Map<String, TableEvidence> byName = new HashMap<>();
      ranked.forEach(e -> byName.put(e.table, e));
      List<Table> all = new ArrayList<>(model.tables());
      all.sort(Comparator.comparingDouble((Table t) -> byName.containsKey(t.name()) ? -byName.get(t.name()).fused : 0));
      double best = ranked.isEmpty() ? 1 : ranked.get(0).fused;
      for (Table t : all) {
        TableEvidence e = byName.get(t.name());
        tables.add(packetTable(t.name(), e == null ? 0 : e.fused / best, "full_schema", e));
      }
    } else {
      // Only a question the gate lets through, on a schema not sent whole, has its phrases searched.
      List<DenseSearch.Hit> phraseHits = phraseHits(question, s);
      time.lap("phrases");
      Completion c = complete(question, stems, ranked, moduleScores, dQueries, phraseHits, verdict.relevance(), s, time);
      judged = c.judged();
      if (c.order().isPresent()) {
        ranking = c.order().get();
      }
      tables.addAll(c.tables());
      namedAdded = c.named();
      patternAdded = c.patterns();
      phraseAdded = c.phrases();
      fkAdded = c.fkAdded();
      fkBlocked = c.fkBlocked();
      bridgesAdded = c.bridges();
    }
    time.lap("expand");

    List<String> names = tables.stream().map(PacketTable::name).toList();
    List<ForeignKey> edges = JoinHints.edgesWithin(model, names);
    List<String> paths = s.joinHints() == RetrievalSettings.JoinHints.PATHS || s.joinHints() == RetrievalSettings.JoinHints.BOTH
        ? JoinHints.paths(model, names) : List.of();
    List<ForeignKey> shownEdges = s.joinHints() == RetrievalSettings.JoinHints.EDGES || s.joinHints() == RetrievalSettings.JoinHints.BOTH
        ? edges : List.of();
    List<String> modules = tables.stream().map(PacketTable::module).flatMap(Optional::stream).distinct().toList();

    long fromTable = tables.stream().filter(t -> t.source().equals("retrieval") || t.source().equals("full_schema")).map(t -> ev.get(t.name()))
        .filter(e -> e != null && (!Double.isNaN(e.denseTable) || e.lexicalTable > 0)).count();
    metrics.put("from_table_evidence", fromTable);
    metrics.put("from_column_evidence", tables.stream().filter(t -> t.source().equals("retrieval") || t.source().equals("full_schema")).count() - fromTable);
    metrics.put("fk_added", (long) fkAdded);
    metrics.put("named_added", (long) namedAdded);
    metrics.put("pattern_added", (long) patternAdded);
    metrics.put("phrase_added", (long) phraseAdded);
    metrics.put("bridges_added", (long) bridgesAdded);
    metrics.put("fk_connected", JoinConnector.connected(model, names) ? 1L : 0L);
    metrics.put("fk_blocked", (long) fkBlocked);
    metrics.put("packet_tables", (long) tables.size());
    metrics.put("packet_tokens", (long) tables.stream().mapToInt(PacketTable::tokenEstimate).sum());
    metrics.put("schema_tokens", (long) index.schemaTokens);
    time.total();

    List<PatternMatch> patterns = new ArrayList<>();
    for (DenseSearch.Hit h : dQueries) {
      if (patterns.size() < PACKET_PATTERNS && names.contains(h.table()) && h.subject().isPresent()) {
        index.pattern(h.table(), h.subject().get(), h.similarity()).ifPresent(patterns::add);
      }
    }
    metrics.put("patterns", (long) patterns.size());
    SchemaContextPacket packet = new SchemaContextPacket(model.databaseId(), asked, tables, shownEdges, paths, modules, full,
        ranking, metrics, time.asMap(), patterns, refusal);
    return new Result(packet, ranked, moduleScores, judged);
  }

  private static List<RankedTable> ranking(List<TableEvidence> ranked) {
    return ranked.stream().map(e -> ranked(e, e.fused)).toList();
  }

  private static RankedTable ranked(TableEvidence e, double score) {
    return new RankedTable(e.table, score, Double.isNaN(e.denseTable) && e.lexicalTable == 0);
  }

  /**
   * What the packet's tables are and where each came from, once the gate has let the question through;
   * the ranking the selector made (its judged tables most probable first, then the rest), when it chose.
   */
  private record Completion(List<PacketTable> tables, int named, int patterns, int phrases, int fkAdded, int fkBlocked, int bridges,
                            List<TableSelector.Candidate> judged, Optional<List<RankedTable>> order) {}

  /**
   * The packet of a larger schema: the tables the selector judges needed (or the ranking cut by score
   * gaps, with FK expansion), then what the question names, the tables a documented query pattern close to
   * it reads, its phrases' tables (when asked for), the tables its roles and name lookups point at, and the
   * bridges that make it joinable.
   */
  private Completion complete(String question, List<String> stems, List<TableEvidence> ranked, Map<String, Double> moduleScores,
                               List<DenseSearch.Hit> patternHits, List<DenseSearch.Hit> phraseHits, double questionRelevance,
                               RetrievalSettings s, Timings time) {
    SchemaModel model = index.model;
    List<PacketTable> tables = new ArrayList<>();
    int namedAdded = 0;
    int patternAdded = 0;
    int phraseAdded = 0;
    int fkAdded = 0;
    int bridgesAdded = 0;
    Map<String, TableEvidence> byName = new HashMap<>();
    ranked.forEach(e -> byName.put(e.table, e));
    Set<String> namedByQuestion = index.named.named(stems, byName.keySet());
    // A value of the data ("the Gym Pass") names its table too. It joins the packet beside the named tables and is
    // no selector feature: the selector was fitted on names alone (the same packets either way on the ERP sets).
    Set<String> namedByValue = index.named.namedByValue(stems, byName.keySet(), index.lexical::heldElsewhere);
    List<TableEvidence> leading = ranked.subList(0, Math.min(TableSelector.CANDIDATES, ranked.size()));
    TableSelector.Context context = new TableSelector.Context(model::neighbours,
        unitsOf(leading), moduleScores, namedByQuestion, questionRelevance, index::wordsOf, Set.copyOf(stems));
    Optional<TableSelector> selector = selector(s);
    List<TableSelector.Candidate> judged;
    List<TableEvidence> chosen;
    Optional<List<RankedTable>> order = Optional.empty();
    if (selector.isPresent()) {
      TableSelector.Choice choice = selector.get().choose(selector.get().judge(ranked, context), context);
      judged = choice.ranking();
      chosen = choice.chosen().stream().map(TableSelector.Candidate::evidence).toList();
      // The selector's order is the ranking: judged tables by unit and probability, then the rest, which it did not judge, at 0.
      List<RankedTable> reordered = new ArrayList<>();
      judged.forEach(c -> reordered.add(ranked(c.evidence(), c.probability())));
      ranked.subList(leading.size(), ranked.size()).forEach(e -> reordered.add(ranked(e, 0)));
      order = Optional.of(reordered);
    } else {
      judged = TableSelector.unjudged(ranked, context);
      chosen = PacketSizer.choose(ranked, s);
    }
    Set<String> inPacket = new LinkedHashSet<>();
    double best = ranked.get(0).fused;
    for (TableEvidence e : chosen) {
      tables.add(packetTable(e.table, e.fused / best, "retrieval", e));
      inPacket.add(e.table);
    }
    time.lap("size");
    // What the question names is kept, hub or not, when it belongs with the packet: same module, or a few FK hops away.
    Set<String> chosenModules = new LinkedHashSet<>();
    chosen.forEach(e -> chosenModules.add(e.module));
    List<TableEvidence> named = new ArrayList<>();
    Set<String> namedAtAll = new LinkedHashSet<>(namedByQuestion);
    namedAtAll.addAll(namedByValue);
    for (String t : namedAtAll) {
      if (!inPacket.contains(t) && belongsWith(t, chosenModules, inPacket)) {
        named.add(byName.get(t));
      }
    }
    named.sort(Comparator.comparingDouble(TableEvidence::fused).reversed());
    // A name the question says brings one or two tables of that name, not every schema's copy of it.
    TableCopies copies = index.copies();
    Map<String, Integer> ofGroup = copies.countIn(inPacket);
    List<TableEvidence> namedKept = named.stream().filter(e -> copies.admit(ofGroup, e.table)).limit(MAX_NAMED).toList();
    for (TableEvidence e : namedKept) {
      inPacket.add(e.table);
      tables.add(packetTable(e.table, e.fused / best, "named", e));
      namedAdded++;
    }
    List<TableEvidence> members = new ArrayList<>(chosen);
    members.addAll(namedKept);
    Map<String, Double> relevance = new HashMap<>();
    ranked.forEach(e -> relevance.put(e.table, e.fused / best));
    // The steps below add a table once, with the relevance the ranking gave it (0 when it did not rank it).
    java.util.function.BiPredicate<String, String> admit = (t, source) -> {
      if (!inPacket.add(t)) {
        return false;
      }
      tables.add(packetTable(t, relevance.getOrDefault(t, 0.0), source, byName.get(t)));
      members.add(byName.getOrDefault(t, new TableEvidence(t)));
      return true;
    };
    // A documented query pattern close to the question is the schema owner's own answer to it: the tables its
    // SQL reads join ("monthly revenue" is the pattern of orders, whose words say "total amount").
    for (String t : patternTables(patternHits, s)) {
      if (admit.test(t, "pattern")) {
        patternAdded++;
      }
    }
    // A phrase of the question that finds a table of its own ("customers pay" the customer payments) where the whole
    // question's vector did not bring it brings it, when it belongs with the packet as a named table does.
    for (DenseSearch.Hit h : phraseHits) {
      String t = h.table();
      if (h.similarity() >= s.phraseTables() && !inPacket.contains(t) && model.table(t).isPresent()
          && belongsWith(t, chosenModules, inPacket) && admit.test(t, "phrase")) {
        phraseAdded++;
      }
    }
    // A role the question names ("sales rep") brings the table the role points at; a question that
    // asks who, for a name, or per/by something brings the lookup that names the leading tables' rows,
    // and a grouping by a kind of rows ("office by office") the packet's target of that kind.
    Set<String> lookups = new LinkedHashSet<>(index.named.referencedByRole(stems, new ArrayList<>(inPacket), NamedTables.asksForPerson(question)));
    Set<String> subjects = new LinkedHashSet<>();
    chosen.stream().limit(LEADING).forEach(e -> subjects.add(e.table));
    namedKept.forEach(e -> subjects.add(e.table));
    lookups.addAll(index.named.nameLookups(question, stems, subjects, inPacket, relevance));
    lookups.addAll(index.named.groupedBy(question, inPacket, relevance));
    for (String t : lookups) {
      if (admit.test(t, "named")) {
        namedAdded++;
      }
    }
    // The selector weighs FK adjacency itself; the evidence sizer leaves it to expansion.
    FkExpansion.Outcome fk = selector.isPresent() ? new FkExpansion.Outcome(List.of(), 0) : FkExpansion.expand(model, members, ranked, s);
    for (TableEvidence e : fk.added()) {
      if (inPacket.add(e.table)) {
        tables.add(packetTable(e.table, e.fused / best, "fk_expansion", e));
        fkAdded++;
      }
    }
    for (String b : JoinConnector.bridges(model, new ArrayList<>(inPacket), relevance, MAX_BRIDGES)) {
      if (inPacket.add(b)) {
        tables.add(packetTable(b, relevance.getOrDefault(b, 0.0), "join_bridge", byName.get(b)));
        bridgesAdded++;
      }
    }
    return new Completion(tables, namedAdded, patternAdded, phraseAdded, fkAdded, fk.blocked(), bridgesAdded, judged, order);
  }

  /** Whether a table the question points at belongs with the packet: a module of its chosen tables, or a few FK hops away. */
  private boolean belongsWith(String table, Set<String> chosenModules, Set<String> inPacket) {
    return chosenModules.contains(ScoreFusion.module(index.moduleOf, table)) || JoinConnector.withinHops(index.model, table, inPacket, NAMED_HOPS);
  }

  /** The tables read by the query patterns at least {@code s.patternTables()} similar to the question, most similar first. */
  private Set<String> patternTables(List<DenseSearch.Hit> patternHits, RetrievalSettings s) {
    Set<String> out = new LinkedHashSet<>();
    if (s.patternTables() <= 0) {
      return out;
    }
    for (DenseSearch.Hit h : patternHits) {
      if (h.similarity() >= s.patternTables() && h.subject().isPresent()) {
        out.addAll(index.patternTables(h.table(), h.subject().get()));
      }
    }
    return out;
  }

  /**
   * For each phrase of the question ({@link QuestionPhrases}), embedded and then searched in one round trip,
   * the table nearest to it; none when the setting is off or the question is one phrase. Embedded beside the
   * dense queries instead of after them, the phrases were no faster at 10,000 tables: both want the two cores.
   */
  private List<DenseSearch.Hit> phraseHits(String question, RetrievalSettings s) {
    List<String> phrases = s.phraseTables() > 0 ? QuestionPhrases.of(question) : List.of();
    if (phrases.isEmpty()) {
      return List.of();
    }
    List<List<DenseSearch.Hit>> nearest = dense.nearestEach(ChunkKind.OVERVIEW, phrases.stream().map(embedder::embed).toList(), PHRASE_TABLES);
    List<DenseSearch.Hit> out = new ArrayList<>();
    for (int i = 0; i < phrases.size(); i++) {
      String phrase = phrases.get(i);
      nearest.get(i).stream().findFirst().ifPresent(h -> out.add(new DenseSearch.Hit(h.table(), Optional.of(phrase), h.similarity())));
    }
    return out;
  }

  /** The unit of each leading table's module (see {@link TableSelector}). */
  private Map<String, String> unitsOf(List<TableEvidence> leading) {
    List<String> modules = leading.stream().map(e -> e.module).distinct().toList();
    Map<String, String> unitOfModule = index.unitsOf(modules);
    Map<String, String> out = new HashMap<>();
    leading.forEach(e -> out.put(e.table, unitOfModule.getOrDefault(e.module, e.module)));
    return out;
  }

  /**
   * The best relevance of the question's parts: the question without its values, and each of its clauses
   * ({@link QuestionValues#clauses}); 0 when it has neither.
   */
  private double relevanceOfParts(String question) {
    List<String> parts = QuestionValues.parts(question);
    if (parts.isEmpty()) {
      return 0;
    }
    // One call for all parts: a call costs the model about as much for a short text as for a question.
    List<float[]> vectors = embedder.embedQuestions(parts);
    double best = 0;
    for (float[] v : vectors) {
      best = Math.max(best, relevanceOf(v));
    }
    return best;
  }

  /**
   * Whether the question names a ranked table, by a value of its data in {@link RelevanceGate#NAMED_VALUE_WORDS} words or
   * more or as a named table is named: asked by the gate only below it.
   */
  private boolean namesATable(List<String> stems, List<TableEvidence> ranked) {
    List<String> tables = ranked.stream().map(e -> e.table).toList();
    return !index.named.named(stems, tables).isEmpty()
        || !index.named.namedByValue(stems, tables, index.lexical::heldElsewhere, RelevanceGate.NAMED_VALUE_WORDS).isEmpty();
  }

  /**
   * Whether the one word of a one-word question is a word of a ranked table's own name: "invoices" asks for the
   * customer or the supplier invoices, though no table is called that alone.
   */
  private boolean inATableName(List<String> stems, List<TableEvidence> ranked) {
    return stems.size() == 1 && index.named.inAName(stems.get(0), ranked.stream().map(e -> e.table).toList());
  }

  /** The best evidence of one text, as the gate reads it ({@link RelevanceGate#relevance}). */
  private double relevanceOf(float[] q) {
    double best = 0;
    for (DenseSearch.Hit h : dense.nearest(ChunkKind.OVERVIEW, q, 5)) {
      best = Math.max(best, h.similarity());
    }
    for (DenseSearch.Hit h : dense.nearest(ChunkKind.COLUMN, q, 5)) {
      best = Math.max(best, RelevanceGate.evidence(h.similarity(), index.sampled(h.table(), h.subject().orElse(""))));
    }
    return best;
  }

  private record LexicalResult(List<LexicalIndex.Hit> tables, List<LexicalIndex.Hit> columns, Map<String, Double> modules) {}

  /** Daemon threads: lexical search must never keep a JVM alive. */
  private static final java.util.concurrent.ExecutorService LEXICAL_POOL = java.util.concurrent.Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "lexical-search");
    t.setDaemon(true);
    return t;
  });

  private LexicalResult lexical(String question, Map<String, Double> nameWords) {
    Map<String, Double> modules = new HashMap<>();
    index.modules.ifPresent(m -> m.search(question, LexicalIndex.MODULE, 50, nameWords).forEach(h -> modules.put(h.table(), h.score())));
    return new LexicalResult(lexicalTables(question, nameWords), index.lexical.search(question, ChunkKind.COLUMN, LEXICAL_COLUMNS, nameWords),
        modules);
  }

  /**
   * The lexical table hits; where tables are copies of one another, the first copies of each among three times as
   * many (see {@link TableCopies#fewOfEach}). Only here: BM25 ranks copies alike, so they fill its limit
   * (at 10,000 tables, 60 hits of 7 names), and a wider search is cheap in Lucene. Asked as wide, pgvector's
   * stage took 4 ms more there for tables, 15 ms for tables and columns.
   */
  private List<LexicalIndex.Hit> lexicalTables(String question, Map<String, Double> nameWords) {
    TableCopies copies = index.copies();
    if (!copies.any()) {
      return index.lexical.search(question, ChunkKind.OVERVIEW, LEXICAL_TABLES, nameWords);
    }
    return copies.fewOfEach(index.lexical.search(question, ChunkKind.OVERVIEW, LEXICAL_TABLES * TableCopies.COPIES_OVERFETCH, nameWords),
        LEXICAL_TABLES, LexicalIndex.Hit::table);
  }

  private static int distinctTables(List<DenseSearch.Hit> a, List<DenseSearch.Hit> b) {
    Set<String> s = new LinkedHashSet<>();
    a.forEach(h -> s.add(h.table()));
    b.forEach(h -> s.add(h.table()));
    return s.size();
  }

  /**
   * Every table of the {@link #ROUTED_MODULES} modules whose whole text BM25 ranks first becomes a candidate,
   * with whatever evidence of its own it has: among many tables, one the question needs can be outside every
   * search's limit while its module is the one the question is about (at 10,000 tables, 9 of bird-union's 27
   * lost gold tables were no search's hit, 6 of them in the first or second module).
   */
  private void routeModules(Map<String, TableEvidence> ev, Map<String, Double> moduleScores) {
    moduleScores.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(ROUTED_MODULES)
        .forEach(m -> index.tablesOf(m.getKey()).stream().limit(ROUTED_TABLES).forEach(t -> evidence(ev, t)));
  }

  /**
   * The ranking with the tables no search returned (candidates by their module only) after the first
   * {@link #ROUTED_IN_PLACE} of them moved to its end: a module's score lifts all its tables alike, and
   * when the question's words point at the wrong module its tables would fill the places the selector
   * judges ("How strong is the Hulk?" put 14 theme-park tables ahead of the superhero tables).
   */
  static List<TableEvidence> fewUnfoundFirst(List<TableEvidence> ranked) {
    int[] unfound = {0};
    return TableEvidence.movedToEnd(ranked, e -> e.foundByNoSearch() && ++unfound[0] > ROUTED_IN_PLACE);
  }

  private static TableEvidence evidence(Map<String, TableEvidence> ev, String table) {
    return ev.computeIfAbsent(table, TableEvidence::new);
  }

  private PacketTable packetTable(String name, double score, String source, TableEvidence e) {
    Optional<String> module = index.model.table(name).flatMap(Table::module);
    List<String> matched = e == null ? List.of() : e.matchedColumns().stream().limit(5).toList();
    return new PacketTable(name, index.ddl.getOrDefault(name, name), score, source, module, matched,
        index.ddlTokens.getOrDefault(name, 1));
  }

  /** Lap timer for the timing breakdown. */
  private static final class Timings {
    private final long start = System.nanoTime();
    private long last = start;
    private final Map<String, Double> laps = new LinkedHashMap<>();

    void lap(String name) {
      long now = System.nanoTime();
      laps.merge(name, (now - last) / 1e6, Double::sum);
      last = now;
    }

    void total() {
      laps.put("total", (System.nanoTime() - start) / 1e6);
    }

    Map<String, Double> asMap() {
      return Map.copyOf(laps);
    }
  }
}
