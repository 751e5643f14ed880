package dev.schemarag.core.retrieval;

/**
 * A documented query pattern ("golden SQL") near the question: a worked example for generation,
 * and with no model configured, an answer of its own when it matches closely.
 *
 * @param similarity cosine similarity of the question to the pattern's name and use case
 * @param promptText the pattern as the prompt shows it (a comment line, then the SQL)
 */
public record PatternMatch(String table, String name, double similarity, String sql, String promptText) {}
