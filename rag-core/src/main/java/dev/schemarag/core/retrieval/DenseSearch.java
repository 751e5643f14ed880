package dev.schemarag.core.retrieval;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.ChunkKind;
import java.util.List;
import java.util.Optional;

/** Nearest chunks of one kind to a question vector (pgvector in production). */
@FunctionalInterface
public interface DenseSearch {

  /** A dense hit: cosine similarity of one chunk. */
  record Hit(String table, Optional<String> subject, double similarity) {}

  /**
   * The nearest chunks, by descending similarity. A store may count {@code limit} in distinct texts and
   * return every chunk of each (copies of one table in several schemas say the same texts), so the
   * list can be longer than the limit.
   */
  List<Hit> nearest(ChunkKind kind, float[] query, int limit);

  /** The nearest chunks to each of several vectors, in their order; a store may answer all of them in one round trip. */
  default List<List<Hit>> nearestEach(ChunkKind kind, List<float[]> queries, int limit) {
    return queries.stream().map(q -> nearest(kind, q, limit)).toList();
  }

  /**
   * The same search over what {@code view} keeps: hidden tables and columns never come back. This
   * default filters afterwards, asking for more so the limit still fills; a store that can filter
   * while it searches does better.
   */
  default DenseSearch within(SchemaView view) {
    DenseSearch all = this;
    return (kind, query, limit) -> all.nearest(kind, query, limit * 4).stream().filter(h -> visible(view, kind, h)).limit(limit).toList();
  }

  /** Whether a hit's table (and, for a column hit, its column) is readable under {@code view}. */
  static boolean visible(SchemaView view, ChunkKind kind, Hit h) {
    return kind == ChunkKind.COLUMN ? h.subject().map(c -> view.canRead(h.table(), c)).orElse(false) : view.canRead(h.table());
  }
}
