package dev.schemarag.core.retrieval;

import java.util.List;
import java.util.Optional;

/**
 * The absolute relevance gate: a question whose best evidence in the whole schema stays below
 * the gate is answered by no table, and gets an empty packet. The evidence is the best cosine
 * between the question and any table or column chunk, except a column's whose chunk carries values
 * sampled from the data: a city among a column's values ranks that column for "customers in Munich",
 * but is no reason to answer "the weather in Paris"; relevance is judged on what the schema says of
 * itself. It is absolute (not relative to the best hit, which always passes) and depends on the
 * embedding model, so each model has its own calibrated gate ({@code ./schemarag calibrate}, figures
 * in the README).
 */
public final class RelevanceGate {
  private RelevanceGate() {}

  /**
   * What the question without its values gives up against the question itself: taking values out
   * also lifts off-topic questions ("the capital of Australia" reads "the capital of"). Chosen with
   * the gate on the calibration sets.
   */
  static final double VALUES_PENALTY = 0.06;

  /** The best absolute evidence of one table: its own chunk's or its best column's cosine. */
  static double relevance(TableEvidence e) {
    double best = Double.isNaN(e.denseTable) ? 0 : e.denseTable;
    for (TableEvidence.ColumnHit c : e.denseColumns) {
      if (!c.sampled()) {
        best = Math.max(best, c.score());
      }
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
