package dev.schemarag.core.chunk;

/** What part of a table's knowledge a chunk carries. */
public enum ChunkKind {
  OVERVIEW, COLUMN, QUERY, RELATIONSHIP, EXAMPLE;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
