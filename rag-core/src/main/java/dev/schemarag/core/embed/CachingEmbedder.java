package dev.schemarag.core.embed;

import dev.schemarag.core.chunk.Hashing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/** Embeds only texts the cache has not seen for this model; counts what it computed. */
public final class CachingEmbedder implements Embedder {

  private final Embedder delegate;
  private final EmbeddingCache cache;
  private final AtomicLong computed = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong modelNanos = new AtomicLong();

  public CachingEmbedder(Embedder delegate, EmbeddingCache cache) {
    this.delegate = delegate;
    this.cache = cache;
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  /** A question is embedded as one (a model may embed questions unlike stored texts), and not cached. */
  @Override
  public float[] embed(String text) {
    return delegate.embed(text);
  }

  @Override
  public List<float[]> embedQuestions(List<String> texts) {
    return delegate.embedQuestions(texts);
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    return embedBatch(texts).vectors();
  }

  /**
   * Vectors of a batch of texts and which of them the model computed.
   *
   * @param computed {@code computed[i]}: text i was a cache miss embedded by this call (a text
   *     repeated in the batch counts once, at its first position)
   */
  public record Batch(List<float[]> vectors, boolean[] computed) {}

  /** The cached vectors of these texts, by text hash: one cache query. */
  public Map<String, float[]> lookup(Collection<String> texts) {
    Set<String> hashes = new LinkedHashSet<>();
    texts.forEach(t -> hashes.add(Hashing.sha256(t)));
    Map<String, float[]> found = cache.getAll(modelId(), hashes);
    hits.addAndGet(found.size());
    return found;
  }

  /**
   * Embeds a batch with one cache lookup for all its texts, the misses (each distinct text once)
   * in the model's batches, and one cache write.
   */
  public Batch embedBatch(List<String> texts) {
    return embedBatch(texts, lookup(texts));
  }

  /** {@link #embedBatch(List)} with the cache already looked up (by {@link #lookup}, for these texts or more). */
  public Batch embedBatch(List<String> texts, Map<String, float[]> cached) {
    return embedBatch(texts, cached, true);
  }

  /**
   * {@link #embedBatch(List, Map)}; with {@code writeCache} false the new vectors are not put in
   * the cache here: the caller does it with {@link #remember}, for instance beside its own writes.
   */
  public Batch embedBatch(List<String> texts, Map<String, float[]> cached, boolean writeCache) {
    List<String> hashes = texts.stream().map(Hashing::sha256).toList();
    Map<String, String> byHash = new LinkedHashMap<>();
    for (int i = 0; i < texts.size(); i++) {
      byHash.putIfAbsent(hashes.get(i), texts.get(i));
    }
    Map<String, float[]> found = new HashMap<>();
    byHash.keySet().forEach(h -> {
      float[] v = cached.get(h);
      if (v != null) {
        found.put(h, v);
      }
    });
    List<String> missingHashes = byHash.keySet().stream().filter(h -> !found.containsKey(h)).toList();
    Set<String> fresh = new HashSet<>(missingHashes);
    if (!missingHashes.isEmpty()) {
      long t0 = System.nanoTime();
      List<float[]> vectors = delegate.embedAll(missingHashes.stream().map(byHash::get).toList());
      modelNanos.addAndGet(System.nanoTime() - t0);
      Map<String, float[]> computedNow = new LinkedHashMap<>();
      for (int i = 0; i < missingHashes.size(); i++) {
        computedNow.put(missingHashes.get(i), vectors.get(i));
      }
      if (writeCache) {
        cache.putAll(modelId(), computedNow);
      }
      found.putAll(computedNow);
      computed.addAndGet(computedNow.size());
    }
    List<float[]> out = new ArrayList<>(texts.size());
    boolean[] computedFlags = new boolean[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      out.add(found.get(hashes.get(i)));
      computedFlags[i] = fresh.remove(hashes.get(i));
    }
    return new Batch(out, computedFlags);
  }

  /** Puts vectors computed by {@link #embedBatch(List, Map, boolean)} in the cache, by text hash. */
  public void remember(Map<String, float[]> vectorsByHash) {
    if (!vectorsByHash.isEmpty()) {
      cache.putAll(modelId(), vectorsByHash);
    }
  }

  /** Embeddings computed by the model (cache misses) since creation. */
  public long computed() {
    return computed.get();
  }

  /** Time spent in the model itself (cache misses) since creation. */
  public long modelNanos() {
    return modelNanos.get();
  }

  public long cacheHits() {
    return hits.get();
  }
}
