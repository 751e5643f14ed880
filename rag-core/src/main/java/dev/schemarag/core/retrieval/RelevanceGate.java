package dev.schemarag.core.retrieval;

import java.util.List;
import java.util.Optional;

/**
 * The absolute relevance gate: a question whose best evidence in the whole schema stays below
 * the gate is answered by no table, and gets an empty packet. The evidence is the best cosine
 * between the question and any table or column chunk, a column whose chunk carries values sampled
 * from the data counting {@link #SAMPLED_PENALTY} less: a city among a column's values ranks that
 * column for "customers in Munich", but is a weaker reason to answer "the weather in Paris" than
 * what the schema says of itself. It is absolute (not relative to the best hit, which always
 * passes) and depends on the embedding model, so each model has its own calibrated gate
 * ({@code ./schemarag calibrate}, figures in the README).
 */
public final class RelevanceGate {
  private RelevanceGate() {}

  /**
   * What the question without its values gives up against the question itself: taking values out
   * also lifts off-topic questions ("the capital of Australia" reads "the capital of"). Chosen with
   * the gate on the calibration sets.
   */
  static final double VALUES_PENALTY = 0.06;

  /**
   * What a column's cosine gives up when its chunk carries values sampled from the data: its vector says
   * what the data holds as well as what the column is. Chosen with the gate on the ERP sets (in-scope,
   * off-topic, and questions that name values): excluding such columns refused in-scope questions that
   * only their values answer ("top 5 networking products"), counting them in full let "the weather in
   * Paris" through on a time zone column.
   */
  static final double SAMPLED_PENALTY = 0.03;

  /** A column's cosine as evidence of relevance. */
  static double evidence(double cosine, boolean sampled) {
    return sampled ? cosine - SAMPLED_PENALTY : cosine;
  }

  /** The best absolute evidence of one table: its own chunk's or its best column's cosine. */
  static double relevance(TableEvidence e) {
    double best = Double.isNaN(e.denseTable) ? 0 : e.denseTable;
    for (TableEvidence.ColumnHit c : e.denseColumns) {
      best = Math.max(best, evidence(c.score(), c.sampled()));
    }
    return best;
  }

  /** The question's relevance to the schema: the best table's, and which table that is. */
  static Optional<TableEvidence> closest(List<TableEvidence> ranked) {
    TableEvidence best = null;
    for (TableEvidence e : ranked) {
      if (best == null || relevance(e) > relevance(best)) {
        best = e;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The question's relevance and, when a gate is set ({@code gate > 0}) and nothing reaches it, the
   * refusal. Only below the gate is the question without its values asked (an embedding and a dense
   * search more), and it counts {@link #VALUES_PENALTY} less.
   *
   * @param withoutValues the best cosine of the question with its values taken out (see {@link QuestionValues})
   */
  static Verdict judge(Optional<TableEvidence> closest, double gate, java.util.function.DoubleSupplier withoutValues) {
    double score = closest.map(RelevanceGate::relevance).orElse(0.0);
    if (gate <= 0 || score >= gate) {
      return new Verdict(score, Optional.empty());
    }
    score = Math.max(score, withoutValues.getAsDouble() - VALUES_PENALTY);
    return new Verdict(score, score >= gate ? Optional.empty()
        : Optional.of(new SchemaContextPacket.Refusal(closest.map(TableEvidence::table), score, gate)));
  }

  /** The relevance a question was judged by, and the refusal when it missed the gate. */
  record Verdict(double relevance, Optional<SchemaContextPacket.Refusal> refusal) {}
}
