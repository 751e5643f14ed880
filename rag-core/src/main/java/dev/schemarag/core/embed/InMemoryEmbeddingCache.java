package dev.schemarag.core.embed;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A process-local cache (tests, one-off runs); {@code PgEmbeddingCache} persists. */
public final class InMemoryEmbeddingCache implements EmbeddingCache {

  private final Map<String, float[]> map = new ConcurrentHashMap<>();

  @Override
  public Map<String, float[]> getAll(String modelId, Collection<String> textHashes) {
    Map<String, float[]> out = new HashMap<>();
    for (String h : textHashes) {
      float[] v = map.get(modelId + "/" + h);
      if (v != null) {
        out.put(h, v);
      }
    }
    return out;
  }

  @Override
  public void putAll(String modelId, Map<String, float[]> byTextHash) {
    byTextHash.forEach((h, v) -> map.put(modelId + "/" + h, v));
  }
}
