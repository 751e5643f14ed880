package dev.schemarag.core.retrieval;

import dev.schemarag.core.search.LexicalIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuses the evidence of each table into one score, then lifts tables of modules that the
 * question is about.
 *
 * <p>Table evidence: the table chunk's dense cosine and BM25, and its two best columns' dense
 * cosines and BM25 scores, each column weighted by how specific its name is (a column named like
 * dozens of others says less). BM25 is scaled by the question's best score so that it compares
 * across questions. Module evidence: the best table score of the module and BM25 over the
 * module's whole text, so that a module covering all of the question's terms beats one that
 * matches a single word. Weights were fitted on the Spider train and BIRD dev questions.
 */
final class ScoreFusion {
  private ScoreFusion() {}

  static final double W_DENSE_TABLE = 0.2;
  static final double W_DENSE_COLUMN = 0.5;
  static final double W_LEX_TABLE = 0.1;
  static final double W_LEX_COLUMN = 0.1;
  /** Weight of a table's second-best column relative to its best. */
  static final double SECOND_COLUMN = 0.5;
  /** Exponent on column specificity: 0 ignores it, 1 takes it at face value. */
  static final double SPECIFICITY_EXPONENT = 0.15;
  static final double W_MODULE_BEST = 0.5;
  static final double W_MODULE_LEXICAL = 0.3;

  static List<TableEvidence> fuse(Collection<TableEvidence> evidence, List<DenseSearch.Hit> denseTables,
                                  List<DenseSearch.Hit> denseColumns, List<LexicalIndex.Hit> lexTables,
                                  List<LexicalIndex.Hit> lexColumns, Map<String, String> moduleOf,
                                  Map<String, Double> moduleLexical) {
    // A table that no list returned scores as the weakest hit of that list did.
    double denseTableFloor = denseTables.stream().mapToDouble(DenseSearch.Hit::similarity).min().orElse(0);
    double denseColumnFloor = denseColumns.stream().mapToDouble(DenseSearch.Hit::similarity).min().orElse(0);
    double lexTableMax = lexTables.stream().mapToDouble(LexicalIndex.Hit::score).max().orElse(1);
    double lexColumnMax = lexColumns.stream().mapToDouble(LexicalIndex.Hit::score).max().orElse(1);
    double moduleLexMax = moduleLexical.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);

    Map<String, Double> moduleBest = new HashMap<>();
    for (TableEvidence e : evidence) {
      double dt = Double.isNaN(e.denseTable) ? denseTableFloor : e.denseTable;
      if (!Double.isNaN(e.denseQuery)) {
        dt = Math.max(dt, e.denseQuery);
      }
      double dc = columns(e.denseColumns, 1, denseColumnFloor);
      double lt = e.lexicalTable / lexTableMax;
      double lc = columns(e.lexicalColumns, lexColumnMax, 0);
      e.tableScore = W_DENSE_TABLE * dt + W_DENSE_COLUMN * dc + W_LEX_TABLE * lt + W_LEX_COLUMN * lc;
      moduleBest.merge(module(moduleOf, e.table), e.tableScore, Math::max);
    }
    for (TableEvidence e : evidence) {
      String m = module(moduleOf, e.table);
      e.module = m;
      e.fused = e.tableScore + W_MODULE_BEST * moduleBest.get(m)
          + W_MODULE_LEXICAL * moduleLexical.getOrDefault(m, 0.0) / moduleLexMax;
    }
    List<TableEvidence> ranked = new ArrayList<>(evidence);
    ranked.sort(Comparator.comparingDouble(TableEvidence::fused).reversed().thenComparing(TableEvidence::table));
    return ranked;
  }

  /** Tables without a module form one group: the whole schema. */
  static String module(Map<String, String> moduleOf, String table) {
    return moduleOf.getOrDefault(table, "");
  }

  /** Best column plus half the second best, each scaled by specificity^exponent. */
  private static double columns(List<TableEvidence.ColumnHit> hits, double scale, double floor) {
    if (hits.isEmpty()) {
      return floor;
    }
    double first = Double.NEGATIVE_INFINITY;
    double second = 0;
    for (TableEvidence.ColumnHit h : hits) {
      double v = h.score() / scale * Math.pow(h.specificity(), SPECIFICITY_EXPONENT);
      if (v > first) {
        second = Math.max(second, first);
        first = v;
      } else if (v > second) {
        second = v;
      }
    }
    return first + SECOND_COLUMN * Math.max(0, second);
  }
}
