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
 */
public record RetrievalSettings(int topK, double threshold, int smallSchemaTables, int fkCap, int hubDegree,
                                JoinHints joinHints, double bm25K1, double bm25B, double relevanceGate) {

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
        relevanceGate(c.get(ConfigKeys.RETRIEVAL_RELEVANCE_GATE), c.get(ConfigKeys.EMBEDDING_MODEL)));
  }

  /** {@code auto}: the embedding model's calibrated gate; otherwise the number given. */
  static double relevanceGate(String value, String embeddingModel) {
    String v = value.trim();
    if (v.equalsIgnoreCase("auto")) {
      return RelevanceGates.forModel(embeddingModel);
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("retrieval.relevance.gate must be auto or a number within 0..1, not '" + value + "'");
    }
  }

  public RetrievalSettings withTopK(int k) {
    return new RetrievalSettings(k, threshold, smallSchemaTables, fkCap, hubDegree, joinHints, bm25K1, bm25B, relevanceGate);
  }

  public RetrievalSettings withRelevanceGate(double gate) {
    return new RetrievalSettings(topK, threshold, smallSchemaTables, fkCap, hubDegree, joinHints, bm25K1, bm25B, gate);
  }
}
