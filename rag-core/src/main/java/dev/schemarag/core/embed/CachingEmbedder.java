package dev.schemarag.core.embed;

import dev.schemarag.core.chunk.Hashing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Embeds only texts the cache has not seen for this model; counts what it computed. */
public final class CachingEmbedder implements Embedder {

  private final Embedder delegate;
  private final EmbeddingCache cache;
  private final AtomicLong computed = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();

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
  public List<float[]> embedAll(List<String> texts) {
    Map<String, String> byHash = new LinkedHashMap<>();
    for (String t : texts) {
      byHash.putIfAbsent(Hashing.sha256(t), t);
    }
    Map<String, float[]> found = new LinkedHashMap<>(cache.getAll(modelId(), byHash.keySet()));
    hits.addAndGet(found.size());
    List<String> missingHashes = byHash.keySet().stream().filter(h -> !found.containsKey(h)).toList();
    if (!missingHashes.isEmpty()) {
      List<float[]> vectors = delegate.embedAll(missingHashes.stream().map(byHash::get).toList());
      Map<String, float[]> fresh = new LinkedHashMap<>();
      for (int i = 0; i < missingHashes.size(); i++) {
        fresh.put(missingHashes.get(i), vectors.get(i));
      }
      cache.putAll(modelId(), fresh);
      found.putAll(fresh);
      computed.addAndGet(fresh.size());
    }
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(found.get(Hashing.sha256(t)));
    }
    return out;
  }

  /** Embeddings computed by the model (cache misses) since creation. */
  public long computed() {
    return computed.get();
  }

  public long cacheHits() {
    return hits.get();
  }
}
