package dev.schemarag.core.retrieval;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

/**
 * An HNSW graph over the first {@link #rows} rows of a matrix of unit vectors (one row each, laid
 * end to end), built once with Lucene's builder and then only read: a search keeps its own state, so
 * any number may run at once. Scores are dot products, as {@link ChunkVectors} computes them.
 *
 * <p>Why: an exact scan of 21,633 texts (10,000 tables) took most of the dense stage; a walk of the
 * graph reads a few thousand of them.
 */
final class TextGraph {

  /** Neighbours per node and the candidate list while building: Lucene's defaults. */
  static final int MAX_CONNECTIONS = HnswGraphBuilder.DEFAULT_MAX_CONN;
  static final int BEAM_WIDTH = HnswGraphBuilder.DEFAULT_BEAM_WIDTH;
  /** A fixed seed: the same rows give the same graph, so a question gets the same packet every time. */
  static final long SEED = 42;

  private final float[] matrix;
  private final int dimension;
  private final int rows;
  private final OnHeapHnswGraph graph;

  private TextGraph(float[] matrix, int dimension, int rows, OnHeapHnswGraph graph) {
    this.matrix = matrix;
    this.dimension = dimension;
    this.rows = rows;
    this.graph = graph;
  }

  /** The graph over rows {@code 0..rows-1} of {@code matrix}; the matrix must not change afterwards. */
  static TextGraph build(float[] matrix, int dimension, int rows) {
    if (dimension < 1 || rows < 1 || (long) rows * dimension > matrix.length) {
      throw new IllegalArgumentException("a graph needs at least one row of " + dimension + " dimensions within the matrix, not " + rows);
    }
    try {
      HnswGraphBuilder builder = HnswGraphBuilder.create(new Supplier(matrix, dimension, rows), MAX_CONNECTIONS, BEAM_WIDTH, SEED);
      return new TextGraph(matrix, dimension, rows, builder.build(rows));
    } catch (IOException e) {
      // Every vector is on the heap: the builder's IOException cannot happen here.
      throw new UncheckedIOException(e);
    }
  }

  /**
   * About the {@code candidates} rows nearest to {@code unitQuery} among those {@code live} accepts,
   * nearest first (fewer when fewer are live).
   */
  int[] nearest(float[] unitQuery, int candidates, Bits live) {
    if (unitQuery.length != dimension) {
      throw new IllegalArgumentException("the question's vector has " + unitQuery.length + " dimensions, the graph's " + dimension);
    }
    try {
      KnnCollector found = HnswGraphSearcher.search(new Scorer(matrix, dimension, rows, unitQuery, 0), Math.max(1, candidates), graph, live,
          Integer.MAX_VALUE);
      ScoreDoc[] docs = found.topDocs().scoreDocs;
      int[] out = new int[docs.length];
      for (int i = 0; i < docs.length; i++) {
        out[i] = docs[i].doc;
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Scores rows against one vector (a row's own, while building; the question's, while searching). */
  private static final class Scorer implements RandomVectorScorer {
    private final float[] matrix;
    private final int dimension;
    private final int rows;
    private final float[] against;
    private final int at;

    Scorer(float[] matrix, int dimension, int rows, float[] against, int at) {
      this.matrix = matrix;
      this.dimension = dimension;
      this.rows = rows;
      this.against = against;
      this.at = at;
    }

    @Override
    public float score(int row) {
      // Lucene wants a score that grows with similarity and is not negative: the dot product moved into 0..1.
      return Math.max((1 + ChunkVectors.dot(against, at, matrix, row * dimension, dimension)) / 2, 0);
    }

    @Override
    public int maxOrd() {
      return rows;
    }
  }

  /** The builder's scorers: each row against the others. */
  private record Supplier(float[] matrix, int dimension, int rows) implements RandomVectorScorerSupplier {
    @Override
    public RandomVectorScorer scorer(int row) {
      return new Scorer(matrix, dimension, rows, matrix, row * dimension);
    }

    @Override
    public RandomVectorScorerSupplier copy() {
      return this;
    }
  }
}
