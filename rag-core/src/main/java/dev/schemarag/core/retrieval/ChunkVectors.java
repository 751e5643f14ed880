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
 * The vectors of one database's searched chunks, held by the query side, and an exact dense search
 * over them. Each distinct text of a kind is held and scored once and its similarity given to every
 * chunk that says it, as the store's text table does ({@code chunk_texts}), so the limit counts
 * distinct texts. The store stays the vectors' home: they are read from it with the chunks, and a
 * changed table's again with its chunks ({@link #with}).
 *
 * <p>Why in memory: a question searches three kinds, each a round trip and an HNSW walk in
 * PostgreSQL. Scoring every text in the JVM is exact and takes about a millisecond per 6,000 texts;
 * at 21,633 texts (10,000 tables) it was no faster than pgvector, so only databases up to
 * {@code retrieval.dense.memory.texts} are held (figures in the README). Immutable: a change gives
 * a new version.
 */
public final class ChunkVectors implements DenseSearch {

  /** The chunk kinds searched densely; other kinds carry no vector here. */
  public static final Set<ChunkKind> KINDS = java.util.Collections.unmodifiableSet(java.util.EnumSet.of(ChunkKind.OVERVIEW,
      ChunkKind.COLUMN, ChunkKind.QUERY));

  /** A chunk that says a text: the hit it gives. */
  private record Ref(String table, Optional<String> subject) {}

  /** One distinct text of a kind and the chunks that say it; its vector is a row of its kind's matrix. */
  private record Text(String key, List<Ref> refs) {}

  /**
   * The texts of one kind and their unit vectors, one row each in one array: a scan reads memory in
   * order. With an array per vector the dense stage at 10,000 tables (21,633 texts, 33 MB) took 20.3 ms
   * in the mean, with one per kind 13.3 ms.
   */
  private record Layout(Text[] texts, float[] matrix) {}

  private final Map<String, Text> byKey;
  /** Per table, the keys of the texts its chunks say: what a change of the table takes back. */
  private final Map<String, Set<String>> keysOfTable;
  private final Map<ChunkKind, Layout> byKind;
  /** Each text's row in its kind's matrix. */
  private final Map<String, Integer> rowOf;
  private final int dimension;

  /** @param vectorOf each held text's unit vector, by key */
  private ChunkVectors(Map<String, Text> byKey, Map<String, Set<String>> keysOfTable, int dimension,
                       java.util.function.Function<String, float[]> vectorOf) {
    this.byKey = byKey;
    this.keysOfTable = keysOfTable;
    this.dimension = dimension;
    Map<ChunkKind, List<Text>> lists = new EnumMap<>(ChunkKind.class);
    for (Text t : byKey.values()) {
      lists.computeIfAbsent(kindOf(t.key()), k -> new ArrayList<>()).add(t);
    }
    Map<ChunkKind, Layout> layouts = new EnumMap<>(ChunkKind.class);
    Map<String, Integer> rows = new HashMap<>();
    lists.forEach((k, l) -> {
      float[] matrix = new float[l.size() * dimension];
      for (int i = 0; i < l.size(); i++) {
        System.arraycopy(vectorOf.apply(l.get(i).key()), 0, matrix, i * dimension, dimension);
        rows.put(l.get(i).key(), i);
      }
      layouts.put(k, new Layout(l.toArray(Text[]::new), matrix));
    });
    this.byKind = layouts;
    this.rowOf = rows;
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
    return java.util.Arrays.copyOfRange(byKind.get(kindOf(key)).matrix(), row * dimension, (row + 1) * dimension);
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
    return new ChunkVectors(Map.of(), Map.of(), 0, k -> null).with(List.of(), chunks, vectors);
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
    return new ChunkVectors(next, nextKeys, Math.max(dim, 0), k -> added.containsKey(k) ? added.get(k) : vector(k));
  }

  private static Set<String> plus(Set<String> keys, String key) {
    if (keys.contains(key)) {
      return keys;
    }
    Set<String> out = new LinkedHashSet<>(keys);
    out.add(key);
    return out;
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
    float[] scores = scores(layout, Vectors.normalize(query));
    List<Hit> out = new ArrayList<>();
    for (int i : top(scores, Math.min(limit, scores.length))) {
      for (Ref r : layout.texts()[i].refs()) {
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
      float[] scores = scores(layout, Vectors.normalize(query));
      List<Hit> out = new ArrayList<>(limit);
      for (int i : top(scores, scores.length)) {
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

  private float[] scores(Layout layout, float[] q) {
    if (q.length != dimension) {
      throw new IllegalArgumentException("the question's vector has " + q.length + " dimensions, the stored ones " + dimension);
    }
    float[] m = layout.matrix();
    float[] scores = new float[layout.texts().length];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = dot(q, m, i * dimension);
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

  /** The dot product of {@code q} and the row of {@code m} from {@code at}, in eight running sums: one sum is a chain of dependent additions. */
  static float dot(float[] q, float[] m, int at) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    float s4 = 0;
    float s5 = 0;
    float s6 = 0;
    float s7 = 0;
    int n = q.length;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      int j = at + i;
      s0 += q[i] * m[j];
      s1 += q[i + 1] * m[j + 1];
      s2 += q[i + 2] * m[j + 2];
      s3 += q[i + 3] * m[j + 3];
      s4 += q[i + 4] * m[j + 4];
      s5 += q[i + 5] * m[j + 5];
      s6 += q[i + 6] * m[j + 6];
      s7 += q[i + 7] * m[j + 7];
    }
    for (; i < n; i++) {
      s0 += q[i] * m[at + i];
    }
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
  }
}
