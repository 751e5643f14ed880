package dev.schemarag.core.retrieval;

/**
 * A table in the full retrieval ranking, before the packet is cut: for recall@k and diagnostics.
 *
 * @param score the learned selector's probability when it chose the packet (0 for the tables past the ones it judged), else the fused score
 */
public record RankedTable(String name, double score, boolean fromColumnEvidence) {}
