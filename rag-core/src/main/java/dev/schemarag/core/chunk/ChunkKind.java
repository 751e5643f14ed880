package dev.schemarag.core.chunk;

/** What part of a table's knowledge a chunk carries. */
public enum ChunkKind {
  OVERVIEW, COLUMN, QUERY, RELATIONSHIP, EXAMPLE;

  /**
   * Whether this kind gets a vector: dense search reads the table, column and query-pattern chunks
   * only. A relationship or example chunk reaches a packet through its table, so embedding it would
   * spend the model on a vector nothing reads (at 10,000 tables, a third of the texts to embed).
   */
  public boolean embedded() {
    return this == OVERVIEW || this == COLUMN || this == QUERY;
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
