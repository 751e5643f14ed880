package dev.schemarag.core.retrieval;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.Locale;

/**
 * Knobs of fused retrieval; defaults documented in {@link ConfigKeys}.
 *
 * @param topK most tables taken from retrieval (before FK expansion)
 * @param threshold minimum fused score relative to the best table
 * @param smallSchemaTables below this many tables the whole schema is the packet
 * @param fkCap most tables FK expansion may add
 * @param hubDegree FK edges from which a table counts as a hub
 * @param relevanceGate absolute relevance a question needs (0 = never refuse); see {@link RelevanceGate}
 * @param selector how the packet's tables are chosen: {@link #SELECTOR_EVIDENCE} for the score-gap sizer ({@link PacketSizer})
 *     and FK expansion, {@link #SELECTOR_LEARNED} for the {@link TableSelector} with the threshold fitted with the
 *     embedding model's weights, a number in (0, 1) for the selector with that threshold, {@link #SELECTOR_AUTO} for the
 *     learned selector when the model has weights and the evidence sizer otherwise
 * @param patternTables similarity to a documented query pattern from which the tables its SQL reads join the packet
 *     (0 = never); see {@link RelevanceGates#patternTables}
 * @param phraseTables similarity from which the table nearest to one phrase of the question joins the packet (0 = never,
 *     and the phrases are not searched); see {@link QuestionPhrases}
 * @param worldMargin how much closer to the questions about the world than to its best table a question may be before the
 *     gate refuses it (0 = never); see {@link WorldQuestions}
 */
public record RetrievalSettings(int topK, double threshold, int smallSchemaTables, int fkCap, int hubDegree,
                                JoinHints joinHints, double bm25K1, double bm25B, double relevanceGate, double selector,
                                double patternTables, double phraseTables, double worldMargin) {

  public static final double SELECTOR_AUTO = 0;
  public static final double SELECTOR_EVIDENCE = -1;
  public static final double SELECTOR_LEARNED = -2;

  public enum JoinHints { EDGES, PATHS, BOTH, NONE }

  public static final RetrievalSettings DEFAULT = from(SchemaragConfig.defaults());

  public RetrievalSettings {
    if (topK < 1) {
      throw new IllegalArgumentException("retrieval.top.k must be at least 1, not " + topK);
    }
    if (threshold < 0 || threshold > 1) {
      throw new IllegalArgumentException("retrieval.threshold must be within 0..1, not " + threshold);
    }
    if (relevanceGate < 0 || relevanceGate >= 1) {
      throw new IllegalArgumentException("retrieval.relevance.gate must be within 0..1 (0 = never refuse), not " + relevanceGate);
    }
    if (patternTables < 0 || patternTables >= 1) {
      throw new IllegalArgumentException("retrieval.pattern.tables.similarity must be within 0..1 (0 = never), not " + patternTables);
    }
    if (phraseTables < 0 || phraseTables >= 1) {
      throw new IllegalArgumentException("retrieval.phrase.tables.similarity must be within 0..1 (0 = never), not " + phraseTables);
    }
    if (worldMargin < 0 || worldMargin >= 1) {
      throw new IllegalArgumentException("retrieval.world.margin must be within 0..1 (0 = never), not " + worldMargin);
    }
    if (selector != SELECTOR_AUTO && selector != SELECTOR_LEARNED && selector != SELECTOR_EVIDENCE && (selector <= 0 || selector >= 1)) {
      throw new IllegalArgumentException("retrieval.selector must be auto, learned, evidence or a threshold within 0..1, not " + selector);
    }
  }

  public static RetrievalSettings from(SchemaragConfig c) {
    String hints = c.get(ConfigKeys.RETRIEVAL_JOIN_HINTS).toUpperCase(Locale.ROOT);
    JoinHints jh;
    try {
      jh = JoinHints.valueOf(hints);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("retrieval.join.hints must be edges, paths, both or none, not '" + hints.toLowerCase(Locale.ROOT) + "'");
    }
    return new RetrievalSettings(c.getInt(ConfigKeys.RETRIEVAL_TOP_K), c.getDouble(ConfigKeys.RETRIEVAL_THRESHOLD),
        c.getInt(ConfigKeys.RETRIEVAL_SMALL_SCHEMA), c.getInt(ConfigKeys.RETRIEVAL_FK_CAP), c.getInt(ConfigKeys.RETRIEVAL_HUB_DEGREE),
        jh, c.getDouble(ConfigKeys.BM25_K1), c.getDouble(ConfigKeys.BM25_B),
        relevanceGate(c.get(ConfigKeys.RETRIEVAL_RELEVANCE_GATE), c.get(ConfigKeys.EMBEDDING_MODEL)), selector(c.get(ConfigKeys.RETRIEVAL_SELECTOR), c.get(ConfigKeys.EMBEDDING_MODEL)),
        patternTables(c.get(ConfigKeys.RETRIEVAL_PATTERN_TABLES), c.get(ConfigKeys.EMBEDDING_MODEL)),
        phraseTables(c.get(ConfigKeys.RETRIEVAL_PHRASE_TABLES), c.get(ConfigKeys.EMBEDDING_MODEL)),
        worldMargin(c.get(ConfigKeys.RETRIEVAL_WORLD_MARGIN), c.get(ConfigKeys.EMBEDDING_MODEL)));
  }

  /** {@code auto}, {@code learned}, {@code evidence} or a threshold; asked for by name or threshold, the learned selector needs the model's weights. */
  static double selector(String value, String embeddingModel) {
    double selector = selector(value);
    if (selector != SELECTOR_EVIDENCE && selector != SELECTOR_AUTO && SelectorModel.forModel(embeddingModel).isEmpty()) {
      throw new IllegalArgumentException("retrieval.selector=" + value.trim() + " needs the learned selector's weights, and the embedding model "
          + embeddingModel.trim() + " has none: fit them with ./schemarag fit-selector, or set retrieval.selector=evidence");
    }
    return selector;
  }

  /** {@code auto}, {@code learned}, {@code evidence} or a threshold. */
  static double selector(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("auto")) {
      return SELECTOR_AUTO;
    }
    if (v.equals("learned")) {
      return SELECTOR_LEARNED;
    }
    if (v.equals("evidence")) {
      return SELECTOR_EVIDENCE;
    }
    try {
      double t = Double.parseDouble(v);
      if (t > 0 && t < 1) {
        return t;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("retrieval.selector must be auto, learned, evidence or a threshold within 0..1 (exclusive), not '" + value + "'");
  }

  /** {@code auto}: the embedding model's calibrated gate; otherwise the number given. */
  static double relevanceGate(String value, String embeddingModel) {
    return calibrated(value, "retrieval.relevance.gate", () -> RelevanceGates.forModel(embeddingModel));
  }

  /** {@code auto}: the embedding model's calibrated similarity (0 without one); otherwise the number given. */
  static double patternTables(String value, String embeddingModel) {
    return calibrated(value, "retrieval.pattern.tables.similarity", () -> RelevanceGates.patternTables(embeddingModel));
  }

  /** {@code auto}: the embedding model's calibrated similarity (0 without one); otherwise the number given. */
  static double phraseTables(String value, String embeddingModel) {
    return calibrated(value, "retrieval.phrase.tables.similarity", () -> RelevanceGates.phraseTables(embeddingModel));
  }

  /** {@code auto}: the embedding model's calibrated world margin (0 without one); otherwise the number given. */
  static double worldMargin(String value, String embeddingModel) {
    return calibrated(value, "retrieval.world.margin", () -> RelevanceGates.worldMargin(embeddingModel));
  }

  /** {@code auto}: what the embedding model's calibration says; otherwise the number given, or an error naming the key. */
  private static double calibrated(String value, String key, java.util.function.DoubleSupplier auto) {
    String v = value.trim();
    if (v.equalsIgnoreCase("auto")) {
      return auto.getAsDouble();
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be auto or a number within 0..1, not '" + value + "'");
    }
  }

  public RetrievalSettings withTopK(int k) {
    return new RetrievalSettings(k, threshold, smallSchemaTables, fkCap, hubDegree, joinHints, bm25K1, bm25B, relevanceGate, selector, patternTables, phraseTables, worldMargin);
  }

  public RetrievalSettings withRelevanceGate(double gate) {
    return new RetrievalSettings(topK, threshold, smallSchemaTables, fkCap, hubDegree, joinHints, bm25K1, bm25B, gate, selector, patternTables, phraseTables, worldMargin);
  }

  public RetrievalSettings withWorldMargin(double margin) {
    return new RetrievalSettings(topK, threshold, smallSchemaTables, fkCap, hubDegree, joinHints, bm25K1, bm25B, relevanceGate, selector, patternTables, phraseTables, margin);
  }

  /** @param how {@link #SELECTOR_AUTO}, {@link #SELECTOR_LEARNED}, {@link #SELECTOR_EVIDENCE} or a threshold */
  public RetrievalSettings withSelector(double how) {
    return new RetrievalSettings(topK, threshold, smallSchemaTables, fkCap, hubDegree, joinHints, bm25K1, bm25B, relevanceGate, how, patternTables, phraseTables, worldMargin);
  }
}
