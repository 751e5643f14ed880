package dev.schemarag.core.retrieval;

import dev.schemarag.core.search.SchemaAnalyzer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which of the ranking's leading tables the packet needs, by a calibrated probability per table
 * instead of a fixed fill: a fitted model (boosted trees or logistic) over the evidence of each table and where it stands
 * (score gaps to the best and to the next, rank overall and within its unit, FK adjacency to the
 * tables above it, whether the question names it, how many of the question's words its own words hold and how many of
 * those no table above it holds). A question with one clear table gets one or two;
 * a flat ranking keeps as many as clear the threshold. The tables come back most probable first, so
 * the selector is also the packet's ranking.
 *
 * <p>A unit is a group of modules joined by foreign keys: the schemas of one database that
 * reference each other form one unit, while unrelated databases indexed together (or modules no key
 * joins) stay apart, so "the same unit as the best table" means "can be joined with it".
 *
 * <p>The weights are fitted by {@code ./schemarag fit-selector} on questions with gold tables (see
 * {@link SelectorModel}); the features are scale-free or bounded so that they carry across schemas.
 */
public final class TableSelector {

  /** How many of the ranking's leading tables are judged: recall@30 is within a point of recall@all on every set. */
  public static final int CANDIDATES = 30;

  private static final List<String> BASE = List.of("bias", "fused", "gap_to_best", "log_rank", "dense_table",
      "dense_column_1", "dense_column_2", "lexical_table", "lexical_column_1", "lexical_column_2", "same_unit_as_best",
      "log_unit_rank", "unit_gap_to_best", "log_rank_in_unit", "gap_to_unit_best", "fk_to_best", "fk_to_unit_best",
      "module_lexical", "dense_column_hits", "lexical_column_hits", "log_fk_degree", "named", "gap_to_next",
      "gap_to_previous", "fk_to_a_higher_table", "unit_share_of_top_5", "relevance", "fused_over_best", "own_words",
      "first_words");

  /**
   * Products of two base features: a linear model cannot tell on its own that a named table counts
   * for more in the best table's unit than outside it, or that a gap hurts more the larger it is.
   */
  private static final List<List<String>> PRODUCTS = List.of(List.of("named", "same_unit_as_best"), List.of("named", "log_rank_in_unit"),
      List.of("fk_to_best", "same_unit_as_best"), List.of("fk_to_unit_best", "log_rank_in_unit"), List.of("dense_column_1", "same_unit_as_best"),
      List.of("gap_to_best", "gap_to_best"), List.of("unit_gap_to_best", "unit_gap_to_best"), List.of("gap_to_unit_best", "gap_to_unit_best"),
      List.of("log_rank_in_unit", "same_unit_as_best"), List.of("named", "gap_to_unit_best"), List.of("relevance", "gap_to_best"));

  /** Feature names, in the order of a row; the weights file names them so that a stale file is refused. */
  public static final List<String> FEATURES = features();

  private static List<String> features() {
    List<String> all = new ArrayList<>(BASE);
    PRODUCTS.forEach(p -> all.add(p.get(0) + "*" + p.get(1)));
    return List.copyOf(all);
  }

  private static final int[][] PRODUCT_INDEX = PRODUCTS.stream()
      .map(p -> new int[] {BASE.indexOf(p.get(0)), BASE.indexOf(p.get(1))}).toArray(int[][]::new);

  /** One judged table: its evidence, its feature row and its probability of being needed. */
  public record Candidate(TableEvidence evidence, double[] features, double probability) {
    public String table() {
      return evidence.table;
    }
  }

  /**
   * What the features of one question are computed from, besides the ranking: {@code words} gives a table's own
   * words as stems, {@code questionWords} are the question's (stop and framing words left out).
   */
  public record Context(Function<String, Set<String>> neighbours, Map<String, String> unitOf, Map<String, Double> moduleLexical,
                        Set<String> named, double relevance, Function<String, Set<String>> words, Set<String> questionWords) {

    /** Without words: the two word features are 0. */
    public Context(Function<String, Set<String>> neighbours, Map<String, String> unitOf, Map<String, Double> moduleLexical,
                   Set<String> named, double relevance) {
      this(neighbours, unitOf, moduleLexical, named, relevance, t -> Set.of(), Set.of());
    }
  }

  private final SelectorModel weights;
  private final double threshold;

  public TableSelector(SelectorModel weights, double threshold) {
    if (threshold <= 0 || threshold >= 1) {
      throw new IllegalArgumentException("the selector threshold must be within (0, 1), not " + threshold);
    }
    this.weights = weights;
    this.threshold = threshold;
  }

  public double threshold() {
    return threshold;
  }

  /** The ranking's leading tables judged, most probable first. */
  public List<Candidate> judge(List<TableEvidence> ranked, Context context) {
    double[][] rows = features(ranked, context);
    List<Candidate> out = new ArrayList<>(rows.length);
    for (int i = 0; i < rows.length; i++) {
      out.add(new Candidate(ranked.get(i), rows[i], weights.probability(rows[i])));
    }
    out.sort(Comparator.comparingDouble(Candidate::probability).reversed());
    return out;
  }

  /** The leading tables with their features and no probability: what fitting new weights learns from. */
  public static List<Candidate> unjudged(List<TableEvidence> ranked, Context context) {
    double[][] rows = features(ranked, context);
    List<Candidate> out = new ArrayList<>(rows.length);
    for (int i = 0; i < rows.length; i++) {
      out.add(new Candidate(ranked.get(i), rows[i], Double.NaN));
    }
    return out;
  }

  /** The judged tables the packet takes: each at or above the threshold, and always the most probable one. */
  public List<Candidate> chosen(List<Candidate> judged) {
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : judged) {
      if (out.isEmpty() || c.probability() >= threshold) {
        out.add(c);
      }
    }
    return out;
  }

  /** Units (modules a foreign key joins) a packet draws its tables from, the most probable first: see {@link #choose}. */
  static final int UNITS_KEPT = 3;
  /** The probability a table of another unit needs to stay among them all the same. */
  static final double OUTSIDE_UNITS = 0.05;

  /** A table at least this probable anchors the packet: see {@link #choose}. */
  static final double ANCHOR = 0.1;
  /** Below this probability, a table more than two foreign keys from every anchor leaves the packet. */
  static final double FAR_PROBABILITY = 0.02;

  /** The judged tables in the order the packet reads them, and the packet's tables: a prefix of that order. */
  public record Choice(List<Candidate> ranking, List<Candidate> chosen) {}

  /**
   * The judged tables by unit, then probability: first those of the {@link #UNITS_KEPT} units with the most
   * probability among the tables over the threshold, with the tables of other units at {@link #OUTSIDE_UNITS} or
   * above, and the most probable table in any case; then the other units' tables. The packet takes the first part's
   * tables at or above the threshold. One query joins the tables of one connected part of the schema: a table that no
   * foreign key joins to the likely parts is of no use to it unless the question is about its part instead; the
   * runners-up stay for when the first is the wrong one (at 10,000 tables it often is). Within the kept units, a
   * table under {@link #FAR_PROBABILITY} more than two foreign keys from every table of {@link #ANCHOR}
   * or more (or from the most probable) follows them too: no query the packet is likely for joins it. A schema that
   * declares no foreign key around the anchors keeps such tables.
   */
  public Choice choose(List<Candidate> judged, Context context) {
    Map<String, Double> mass = new HashMap<>();
    chosen(judged).forEach(c -> mass.merge(unit(context, c.evidence()), c.probability(), Double::sum));
    Set<String> kept = new java.util.HashSet<>(mass.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(UNITS_KEPT).map(Map.Entry::getKey).toList());
    List<Candidate> likely = new ArrayList<>();
    List<Candidate> elsewhere = new ArrayList<>();
    for (Candidate c : judged) {
      boolean first = likely.isEmpty() && elsewhere.isEmpty();
      boolean inside = first || kept.contains(unit(context, c.evidence())) || c.probability() >= OUTSIDE_UNITS;
      (inside ? likely : elsewhere).add(c);
    }
    Set<String> nearAnchors = nearAnchors(likely, context);
    if (!nearAnchors.isEmpty()) {
      List<Candidate> far = likely.stream()
          .filter(c -> c.probability() < FAR_PROBABILITY && !near(c.table(), nearAnchors, context)).toList();
      likely.removeAll(far);
      elsewhere.addAll(far);
      elsewhere.sort(Comparator.comparingDouble(Candidate::probability).reversed());
    }
    List<Candidate> ranking = new ArrayList<>(likely);
    ranking.addAll(elsewhere);
    return new Choice(List.copyOf(ranking), chosen(likely));
  }

  /**
   * The anchors (the tables of {@link #ANCHOR} or more, or the most probable) and their neighbours over foreign
   * keys; empty when no foreign key touches an anchor.
   */
  private static Set<String> nearAnchors(List<Candidate> likely, Context context) {
    Set<String> out = new java.util.HashSet<>();
    boolean keys = false;
    for (int i = 0; i < likely.size(); i++) {
      Candidate c = likely.get(i);
      if (i == 0 || c.probability() >= ANCHOR) {
        out.add(c.table());
        Set<String> n = context.neighbours().apply(c.table());
        keys |= !n.isEmpty();
        out.addAll(n);
      }
    }
    return keys ? out : Set.of();
  }

  /** Within two foreign keys of an anchor: an anchor or its neighbour, or a neighbour of one. */
  private static boolean near(String table, Set<String> nearAnchors, Context context) {
    return nearAnchors.contains(table) || context.neighbours().apply(table).stream().anyMatch(nearAnchors::contains);
  }

  /** The feature rows of the ranking's first {@link #CANDIDATES} tables, in ranking order. */
  public static double[][] features(List<TableEvidence> ranked, Context context) {
    int n = Math.min(CANDIDATES, ranked.size());
    if (n == 0) {
      return new double[0][];
    }
    List<TableEvidence> top = ranked.subList(0, n);
    double best = top.get(0).fused;
    double lexTableMax = 0;
    double lexColumnMax = 0;
    double denseTableFloor = Double.NaN;
    for (TableEvidence e : top) {
      lexTableMax = Math.max(lexTableMax, e.lexicalTable);
      for (TableEvidence.ColumnHit h : e.lexicalColumns) {
        lexColumnMax = Math.max(lexColumnMax, h.score());
      }
      if (!Double.isNaN(e.denseTable)) {
        denseTableFloor = Double.isNaN(denseTableFloor) ? e.denseTable : Math.min(denseTableFloor, e.denseTable);
      }
    }
    lexTableMax = lexTableMax == 0 ? 1 : lexTableMax;
    lexColumnMax = lexColumnMax == 0 ? 1 : lexColumnMax;
    denseTableFloor = Double.isNaN(denseTableFloor) ? 0 : denseTableFloor;
    double moduleLexMax = context.moduleLexical().values().stream().mapToDouble(Double::doubleValue).max().orElse(0);

    // Per unit: its best fused score and its rank among units, in ranking order.
    Map<String, Double> unitBest = new HashMap<>();
    Map<String, Integer> unitRank = new HashMap<>();
    Map<String, String> unitTop = new HashMap<>();
    for (TableEvidence e : top) {
      String u = unit(context, e);
      if (!unitBest.containsKey(u)) {
        unitBest.put(u, e.fused);
        unitRank.put(u, unitRank.size());
        unitTop.put(u, e.table);
      }
    }
    Map<String, Integer> unitInTop5 = new HashMap<>();
    for (TableEvidence e : top.subList(0, Math.min(5, n))) {
      unitInTop5.merge(unit(context, e), 1, Integer::sum);
    }
    String bestUnit = unit(context, top.get(0));
    Set<String> bestNeighbours = context.neighbours().apply(top.get(0).table);
    Map<String, Integer> seenInUnit = new HashMap<>();
    // A table that explains no question word a table above it does not explain already is seldom needed unless it
    // joins them: in a database's few tables the runners-up share the best table's words.
    Set<String> asked = new HashSet<>();
    context.questionWords().stream().filter(SchemaAnalyzer::isWord).forEach(asked::add);
    Set<String> explained = new HashSet<>();
    double[][] rows = new double[n][];
    for (int i = 0; i < n; i++) {
      TableEvidence e = top.get(i);
      String u = unit(context, e);
      int rankInUnit = seenInUnit.merge(u, 1, Integer::sum) - 1;
      Set<String> neighbours = context.neighbours().apply(e.table);
      double[] dense = twoBest(e.denseColumns, 1);
      double[] lexical = twoBest(e.lexicalColumns, lexColumnMax);
      double next = i + 1 < n ? top.get(i + 1).fused : e.fused - 0.1;
      double previous = i > 0 ? top.get(i - 1).fused : e.fused;
      boolean toHigher = false;
      for (int j = 0; j < Math.min(i, 5); j++) {
        toHigher |= neighbours.contains(top.get(j).table);
      }
      String module = e.module;
      double moduleLex = moduleLexMax > 0 ? context.moduleLexical().getOrDefault(module, 0.0) / moduleLexMax : 0;
      int own = 0;
      int first = 0;
      if (!asked.isEmpty()) {
        Set<String> words = context.words().apply(e.table);
        for (String w : asked) {
          if (words.contains(w)) {
            own++;
            first += explained.add(w) ? 1 : 0;
          }
        }
      }
      double[] base = new double[] {
          1,
          e.fused,
          best - e.fused,
          Math.log(i + 1),
          Double.isNaN(e.denseTable) ? denseTableFloor : e.denseTable,
          dense[0],
          dense[1],
          e.lexicalTable / lexTableMax,
          lexical[0],
          lexical[1],
          u.equals(bestUnit) ? 1 : 0,
          Math.log(unitRank.get(u) + 1),
          best - unitBest.get(u),
          Math.log(rankInUnit + 1),
          unitBest.get(u) - e.fused,
          bestNeighbours.contains(e.table) ? 1 : 0,
          context.neighbours().apply(unitTop.get(u)).contains(e.table) ? 1 : 0,
          moduleLex,
          e.denseColumns.size(),
          e.lexicalColumns.size(),
          Math.log(1 + neighbours.size()),
          context.named().contains(e.table) ? 1 : 0,
          e.fused - next,
          previous - e.fused,
          toHigher ? 1 : 0,
          unitInTop5.getOrDefault(u, 0) / 5.0,
          context.relevance(),
          best == 0 ? 0 : e.fused / best,
          asked.isEmpty() ? 0 : own / (double) asked.size(),
          asked.isEmpty() ? 0 : first / (double) asked.size()};
      double[] row = java.util.Arrays.copyOf(base, base.length + PRODUCT_INDEX.length);
      for (int k = 0; k < PRODUCT_INDEX.length; k++) {
        row[base.length + k] = base[PRODUCT_INDEX[k][0]] * base[PRODUCT_INDEX[k][1]];
      }
      rows[i] = row;
    }
    return rows;
  }

  private static String unit(Context context, TableEvidence e) {
    String u = context.unitOf().get(e.table);
    return u == null ? e.module : u;
  }

  /** The best and second-best column scores, scaled. */
  private static double[] twoBest(List<TableEvidence.ColumnHit> hits, double scale) {
    double first = 0;
    double second = 0;
    for (TableEvidence.ColumnHit h : hits) {
      double v = h.score() / scale;
      if (v > first) {
        second = first;
        first = v;
      } else if (v > second) {
        second = v;
      }
    }
    return new double[] {first, second};
  }
}
