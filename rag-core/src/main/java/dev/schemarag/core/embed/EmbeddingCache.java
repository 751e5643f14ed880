package dev.schemarag.core.embed;

import java.util.Collection;
import java.util.Map;

/** Vectors by (model id, embed-text hash): identical text is never embedded twice. */
public interface EmbeddingCache {

  Map<String, float[]> getAll(String modelId, Collection<String> textHashes);

  void putAll(String modelId, Map<String, float[]> byTextHash);
}
