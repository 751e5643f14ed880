package dev.schemarag.core.retrieval;

/** A table in the full retrieval ranking, before the packet is cut: for recall@k and diagnostics. */
public record RankedTable(String name, double score, boolean fromColumnEvidence) {}
