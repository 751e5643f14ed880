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

  /** The kinds that get a vector ({@link #embedded}), in declaration order: what dense search and the store's text table hold. */
  public static final java.util.List<ChunkKind> EMBEDDED = java.util.Arrays.stream(values()).filter(ChunkKind::embedded).toList();

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
