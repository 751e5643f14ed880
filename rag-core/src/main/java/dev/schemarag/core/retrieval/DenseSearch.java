package dev.schemarag.core.retrieval;

import dev.schemarag.core.chunk.ChunkKind;
import java.util.List;
import java.util.Optional;

/** Nearest chunks of one kind to a question vector (pgvector in production). */
@FunctionalInterface
public interface DenseSearch {

  /** A dense hit: cosine similarity of one chunk. */
  record Hit(String table, Optional<String> subject, double similarity) {}

  List<Hit> nearest(ChunkKind kind, float[] query, int limit);
}
