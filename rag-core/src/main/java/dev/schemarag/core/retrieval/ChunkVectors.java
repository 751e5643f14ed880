package dev.schemarag.core.retrieval;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.embed.Vectors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The vectors of one database's searched chunks, held by the query side, and a dense search over
 * them: exact for a kind of up to {@link #GRAPH_TEXTS} texts, through an HNSW graph above. Each
 * distinct text of a kind is held and scored once and its similarity given to every chunk that says it, as the store's text table does ({@code chunk_texts}), so the limit counts
 * distinct texts. The store stays the vectors' home: they are read from it with the chunks, and a
 * changed table's again with its chunks ({@link #with}).
 *
 * <p>Why in memory: a question searches three kinds, each a round trip and an HNSW walk in
 * PostgreSQL. Scoring every text in the JVM is exact and takes about a millisecond per 6,000 texts;
 * at 21,633 texts (10,000 tables) that scan was no faster than pgvector, and the graphs are what
 * make the larger kinds fast. Databases up to {@code retrieval.dense.memory.texts} are held (figures
 * in the README). Immutable: a change gives a new version, which keeps a kind's graph while few of
 * its rows changed.
 */
public final class ChunkVectors implements DenseSearch {

  /** The chunk kinds searched densely: the embedded ones; other kinds carry no vector. */
  public static final Set<ChunkKind> KINDS = java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(ChunkKind.EMBEDDED));

  /** A chunk that says a text: the hit it gives. */
  private record Ref(String table, Optional<String> subject) {}

  /** One distinct text of a kind and the chunks that say it; its vector is a row of its kind's matrix. */
  private record Text(String key, List<Ref> refs) {}

  /** A kind with more texts than this is searched through an HNSW graph ({@link TextGraph}), not exactly. */
  static final int GRAPH_TEXTS = 6_000;
  /** Candidates each graph search keeps, at least (as {@code hnsw.ef_search} 200 in pgvector): then scored exactly. */
  static final int GRAPH_CANDIDATES = 200;
  /** Rows gone from a graph's base or added after it, as a share of its rows, from which the kind's graph is built anew. */
  static final double GRAPH_CHURN = 0.1;

  /**
   * The texts of one kind and their unit vectors, one row each in one array: a scan reads memory in
   * order. With an array per vector the dense stage at 10,000 tables (21,633 texts, 33 MB) took 20.3 ms
   * in the mean, with one per kind 13.3 ms.
   *
   * <p>A kind with a graph keeps the rows the graph was built on ({@code base}) as they were: a text
   * gone since leaves its row empty ({@code texts[row]} null, not in {@code live}), and a text added
   * since takes a row after them ({@code tail}), scanned exactly. Without a graph every row is live and
   * {@code tail} is empty.
   *
   * @param live the base rows still held; null when all are
   */
  private record Layout(Text[] texts, float[] base, TextGraph graph, float[] tail, org.apache.lucene.util.FixedBitSet live) {
    int baseRows(int dimension) {
      return base.length / dimension;
    }

    /** The array holding the row that starts at {@code at} (row × dimension, counted over base then tail). */
    float[] arrayAt(int at) {
      return at < base.length ? base : tail;
    }

    /** Where in {@link #arrayAt} that row starts. */
    int offsetAt(int at) {
      return at < base.length ? at : at - base.length;
    }
  }

  /** Where the layouts of large kinds are built, one kind each. */
  private static final java.util.concurrent.ExecutorService BUILDERS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "text-graph-builder");
    t.setDaemon(true);
    return t;
  });

  private final Map<String, Text> byKey;
  /** Per table, the keys of the texts its chunks say: what a change of the table takes back. */
  private final Map<String, Set<String>> keysOfTable;
  private final Map<ChunkKind, Layout> byKind;
  /** Each text's row in its kind's layout. */
  private final Map<String, Integer> rowOf;
  private final int dimension;

  /**
   * @param vectorOf each held text's unit vector, by key
   * @param before the layouts of the version before: a kind's graph is kept while few of its rows changed
   * @param rowBefore each text's row in the version before
   */
  private ChunkVectors(Map<String, Text> byKey, Map<String, Set<String>> keysOfTable, int dimension,
                       java.util.function.Function<String, float[]> vectorOf, Map<ChunkKind, Layout> before, Map<String, Integer> rowBefore) {
    this.byKey = byKey;
    this.keysOfTable = keysOfTable;
    this.dimension = dimension;
    Map<ChunkKind, List<Text>> lists = new EnumMap<>(ChunkKind.class);
    for (Text t : byKey.values()) {
      lists.computeIfAbsent(kindOf(t.key()), k -> new ArrayList<>()).add(t);
    }
    // Each kind on its own thread: building two graphs of 10,000 texts takes seconds each, and a load has the cores to itself.
    Map<ChunkKind, java.util.concurrent.CompletableFuture<Layout>> laid = new EnumMap<>(ChunkKind.class);
    lists.forEach((k, l) -> laid.put(k, java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      Layout previous = before.get(k);
      Layout kept = previous == null || previous.graph() == null ? null : keptGraph(previous, rowBefore, l, vectorOf);
      return kept != null ? kept : compact(l, vectorOf);
    }, l.size() > GRAPH_TEXTS ? BUILDERS : Runnable::run)));
    Map<ChunkKind, Layout> layouts = new EnumMap<>(ChunkKind.class);
    laid.forEach((k, f) -> {
      try {
        layouts.put(k, f.join());
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    });
    Map<String, Integer> rows = new HashMap<>();
    layouts.values().forEach(layout -> {
      for (int i = 0; i < layout.texts().length; i++) {
        if (layout.texts()[i] != null) {
          rows.put(layout.texts()[i].key(), i);
        }
      }
    });
    this.byKind = layouts;
    this.rowOf = rows;
  }

  /** The texts in this order, every row live; with a graph when there are more than {@link #GRAPH_TEXTS}. */
  private Layout compact(List<Text> texts, java.util.function.Function<String, float[]> vectorOf) {
    float[] matrix = new float[texts.size() * dimension];
    for (int i = 0; i < texts.size(); i++) {
      System.arraycopy(vectorOf.apply(texts.get(i).key()), 0, matrix, i * dimension, dimension);
    }
    TextGraph graph = texts.size() > GRAPH_TEXTS ? TextGraph.build(matrix, dimension, texts.size()) : null;
    return new Layout(texts.toArray(Text[]::new), matrix, graph, new float[0], null);
  }

  /**
   * The previous layout's graph and base rows with {@code texts} in them: a text still held keeps its
   * row (its chunks as now), one gone leaves its row empty, a new one joins the tail. Null when the
   * rows changed since the graph was built reach {@link #GRAPH_CHURN}: the kind is laid out anew.
   */
  private Layout keptGraph(Layout previous, Map<String, Integer> rowBefore, List<Text> texts,
                            java.util.function.Function<String, float[]> vectorOf) {
    int baseRows = previous.baseRows(dimension);
    Text[] base = new Text[baseRows];
    List<Text> tail = new ArrayList<>();
    for (Text t : texts) {
      // A text the version before held in a base row keeps that row; one of its tail joins the new tail.
      Integer row = rowBefore.get(t.key());
      if (row != null && row < baseRows) {
        base[row] = t;
      } else {
        tail.add(t);
      }
    }
    org.apache.lucene.util.FixedBitSet live = new org.apache.lucene.util.FixedBitSet(baseRows);
    for (int i = 0; i < baseRows; i++) {
      if (base[i] != null) {
        live.set(i);
      }
    }
    int gone = baseRows - live.cardinality();
    if (gone + tail.size() >= GRAPH_CHURN * baseRows) {
      return null;
    }
    float[] tailMatrix = new float[tail.size() * dimension];
    for (int i = 0; i < tail.size(); i++) {
      System.arraycopy(vectorOf.apply(tail.get(i).key()), 0, tailMatrix, i * dimension, dimension);
    }
    Text[] all = java.util.Arrays.copyOf(base, baseRows + tail.size());
    for (int i = 0; i < tail.size(); i++) {
      all[baseRows + i] = tail.get(i);
    }
    return new Layout(all, previous.base(), previous.graph(), tailMatrix, gone == 0 ? null : live);
  }

  /** The key of a text's vector: its chunk kind and embed hash, as the store keys its text table. */
  public static String key(ChunkKind kind, String embedHash) {
    return kind.name() + ':' + embedHash;
  }

  private static ChunkKind kindOf(String key) {
    return ChunkKind.valueOf(key.substring(0, key.indexOf(':')));
  }

  /** The unit vector of a text this version holds. */
  private float[] vector(String key) {
    int row = rowOf.get(key);
    Layout layout = byKind.get(kindOf(key));
    int at = layout.offsetAt(row * dimension);
    return java.util.Arrays.copyOfRange(layout.arrayAt(row * dimension), at, at + dimension);
  }

  /** The vectors of some chunks could not be found: the index searches the store instead. */
  public static final class MissingVectors extends Exception {
    public MissingVectors(String message) {
      super(message);
    }
  }

  /**
   * The vectors of {@code chunks}' searched kinds.
   *
   * @param vectors by {@link #key}: every distinct text of the chunks' searched kinds must have one
   * @throws MissingVectors when a text has none (a chunk written after its vectors were read)
   */
  public static ChunkVectors of(Collection<Chunk> chunks, Map<String, float[]> vectors) throws MissingVectors {
    return new ChunkVectors(Map.of(), Map.of(), 0, k -> null, Map.of(), Map.of()).with(List.of(), chunks, vectors);
  }

  /**
   * The next version: the chunks of {@code tables} replaced by {@code chunks} (a table with none is gone).
   *
   * @param vectors by {@link #key}, for texts this version does not hold yet (more is fine)
   * @throws MissingVectors when a new text has no vector
   */
  public ChunkVectors with(Collection<String> tables, Collection<Chunk> chunks, Map<String, float[]> vectors) throws MissingVectors {
    Map<String, Text> next = new LinkedHashMap<>(byKey);
    Map<String, Set<String>> nextKeys = new HashMap<>(keysOfTable);
    for (String table : tables) {
      for (String key : keysOfTable.getOrDefault(table, Set.of())) {
        Text t = next.get(key);
        List<Ref> left = t.refs().stream().filter(r -> !r.table().equals(table)).toList();
        if (left.isEmpty()) {
          next.remove(key);
        } else {
          next.put(key, new Text(key, left));
        }
      }
      nextKeys.remove(table);
    }
    int dim = byKey.isEmpty() ? -1 : dimension;
    Map<String, float[]> added = new HashMap<>();
    int missing = 0;
    String example = null;
    for (Chunk c : chunks) {
      if (!KINDS.contains(c.kind())) {
        continue;
      }
      String key = key(c.kind(), c.embedHash());
      Text t = next.get(key);
      if (t == null && !rowOf.containsKey(key) && !added.containsKey(key)) {
        float[] v = vectors.get(key);
        if (v == null) {
          missing++;
          example = example == null ? c.id() : example;
          continue;
        }
        if (dim < 0) {
          dim = v.length;
        } else if (v.length != dim) {
          throw new IllegalArgumentException("the vector of chunk " + c.id() + " has " + v.length + " dimensions, the others " + dim);
        }
        added.put(key, Vectors.normalize(v));
      }
      List<Ref> refs = new ArrayList<>(t == null ? List.of() : t.refs());
      refs.add(new Ref(c.table(), c.subject()));
      next.put(key, new Text(key, List.copyOf(refs)));
      nextKeys.put(c.table(), plus(nextKeys.getOrDefault(c.table(), Set.of()), key));
    }
    if (missing > 0) {
      throw new MissingVectors(missing + " chunk(s) have no stored vector, e.g. " + example);
    }
    return new ChunkVectors(next, nextKeys, Math.max(dim, 0), k -> added.containsKey(k) ? added.get(k) : vector(k), byKind, rowOf);
  }

  private static Set<String> plus(Set<String> keys, String key) {
    if (keys.contains(key)) {
      return keys;
    }
    Set<String> out = new LinkedHashSet<>(keys);
    out.add(key);
    return out;
  }

  /** The graph a kind is searched through; null when it is scanned exactly. */
  TextGraph graphOf(ChunkKind kind) {
    Layout layout = byKind.get(kind);
    return layout == null ? null : layout.graph();
  }

  /** How many distinct texts are held. */
  public int texts() {
    return byKey.size();
  }

  @Override
  public List<Hit> nearest(ChunkKind kind, float[] query, int limit) {
    Layout layout = byKind.get(kind);
    if (layout == null || limit <= 0) {
      return List.of();
    }
    float[] q = unit(query);
    int[] rows;
    if (layout.graph() == null) {
      rows = null;
    } else {
      // The graph's nearest base rows and every tail row, in row order so that ties go as in an exact scan.
      int baseRows = layout.baseRows(dimension);
      int[] found = layout.graph().nearest(q, Math.max(limit, GRAPH_CANDIDATES), layout.live());
      rows = java.util.Arrays.copyOf(found, found.length + layout.texts().length - baseRows);
      for (int i = found.length, row = baseRows; i < rows.length; i++, row++) {
        rows[i] = row;
      }
      java.util.Arrays.sort(rows);
    }
    float[] scores = scores(layout, q, rows);
    List<Hit> out = new ArrayList<>();
    for (int i : top(scores, Math.min(limit, scores.length))) {
      Text t = layout.texts()[rows == null ? i : rows[i]];
      if (t == null) {
        continue;
      }
      for (Ref r : t.refs()) {
        out.add(new Hit(r.table(), r.subject(), scores[i]));
      }
    }
    return out;
  }

  /** Exact over what {@code view} keeps: the limit counts the visible chunks. */
  @Override
  public DenseSearch within(SchemaView view) {
    return (kind, query, limit) -> {
      Layout layout = byKind.get(kind);
      if (layout == null || limit <= 0) {
        return List.of();
      }
      float[] scores = scores(layout, unit(query), null);
      List<Hit> out = new ArrayList<>(limit);
      for (int i : top(scores, scores.length)) {
        if (layout.texts()[i] == null) {
          continue;
        }
        for (Ref r : layout.texts()[i].refs()) {
          Hit h = new Hit(r.table(), r.subject(), scores[i]);
          if (DenseSearch.visible(view, kind, h)) {
            out.add(h);
            if (out.size() == limit) {
              return out;
            }
          }
        }
      }
      return out;
    };
  }

  private float[] unit(float[] query) {
    if (query.length != dimension) {
      throw new IllegalArgumentException("the question's vector has " + query.length + " dimensions, the stored ones " + dimension);
    }
    return Vectors.normalize(query);
  }

  /** The similarity of {@code q} to each of {@code rows} (all rows when null); an empty row scores lowest. */
  private float[] scores(Layout layout, float[] q, int[] rows) {
    int n = rows == null ? layout.texts().length : rows.length;
    float[] scores = new float[n];
    for (int i = 0; i < n; i++) {
      int row = rows == null ? i : rows[i];
      int at = row * dimension;
      scores[i] = layout.texts()[row] == null ? Float.NEGATIVE_INFINITY
          : dot(q, 0, layout.arrayAt(at), layout.offsetAt(at), dimension);
    }
    return scores;
  }

  /** The indices of the {@code k} highest scores, highest first; ties by index. */
  static int[] top(float[] scores, int k) {
    // A min-heap of the k best so far: one pass over every score, k log k to order them.
    int[] heap = new int[k];
    int size = 0;
    for (int i = 0; i < scores.length; i++) {
      if (size < k) {
        heap[size] = i;
        up(heap, size++, scores);
      } else if (k > 0 && better(i, heap[0], scores)) {
        heap[0] = i;
        down(heap, size, scores);
      }
    }
    int[] out = new int[size];
    for (int n = size; n > 0; n--) {
      out[n - 1] = heap[0];
      heap[0] = heap[n - 1];
      down(heap, n - 1, scores);
    }
    return out;
  }

  /** Whether index a ranks before index b: the higher score, then the lower index. */
  private static boolean better(int a, int b, float[] s) {
    return s[a] > s[b] || (s[a] == s[b] && a < b);
  }

  private static void up(int[] h, int i, float[] s) {
    while (i > 0) {
      int p = (i - 1) / 2;
      if (!better(h[p], h[i], s)) {
        break;
      }
      int x = h[p];
      h[p] = h[i];
      h[i] = x;
      i = p;
    }
  }

  private static void down(int[] h, int n, float[] s) {
    int i = 0;
    while (true) {
      int l = 2 * i + 1;
      int r = l + 1;
      int worst = i;
      if (l < n && better(h[worst], h[l], s)) {
        worst = l;
      }
      if (r < n && better(h[worst], h[r], s)) {
        worst = r;
      }
      if (worst == i) {
        return;
      }
      int x = h[worst];
      h[worst] = h[i];
      h[i] = x;
      i = worst;
    }
  }

  /** The dot product of {@code n} values of {@code a} from {@code aAt} and of {@code m} from {@code mAt}, in eight running sums: one sum is a chain of dependent additions. */
  static float dot(float[] a, int aAt, float[] m, int mAt, int n) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    float s4 = 0;
    float s5 = 0;
    float s6 = 0;
    float s7 = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      int p = aAt + i;
      int j = mAt + i;
      s0 += a[p] * m[j];
      s1 += a[p + 1] * m[j + 1];
      s2 += a[p + 2] * m[j + 2];
      s3 += a[p + 3] * m[j + 3];
      s4 += a[p + 4] * m[j + 4];
      s5 += a[p + 5] * m[j + 5];
      s6 += a[p + 6] * m[j + 6];
      s7 += a[p + 7] * m[j + 7];
    }
    for (; i < n; i++) {
      s0 += a[aAt + i] * m[mAt + i];
    }
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
  }
}
