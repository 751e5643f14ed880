package dev.schemarag.core.embed;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.ollama.OllamaEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An {@link Embedder} over a langchain4j {@link EmbeddingModel}: in-process ONNX, Ollama or OpenAI-compatible. */
public final class Langchain4jEmbedder implements Embedder {

  private final String modelId;
  private final EmbeddingModel model;
  private final int batchSize;
  private volatile int dimension = -1;

  public Langchain4jEmbedder(String modelId, EmbeddingModel model, int batchSize) {
    this.modelId = modelId;
    this.model = model;
    this.batchSize = Math.max(1, batchSize);
  }

  /**
   * @param spec all-minilm-l6-v2 (default), all-minilm-l6-v2-q, bge-small-en-v15-q, ollama:MODEL or openai:MODEL
   * @param baseUrl endpoint for ollama: and openai: models
   */
  public static Langchain4jEmbedder create(String spec, String baseUrl, String apiKey, int batchSize) {
    return switch (spec) {
      case "all-minilm-l6-v2" -> new Langchain4jEmbedder(spec, new AllMiniLmL6V2EmbeddingModel(), batchSize);
      case "all-minilm-l6-v2-q" -> new Langchain4jEmbedder(spec, new AllMiniLmL6V2QuantizedEmbeddingModel(), batchSize);
      case "bge-small-en-v15-q" -> new Langchain4jEmbedder(spec, new BgeSmallEnV15QuantizedEmbeddingModel(), batchSize);
      default -> remote(spec, baseUrl, apiKey, batchSize);
    };
  }

  private static Langchain4jEmbedder remote(String spec, String baseUrl, String apiKey, int batchSize) {
    int colon = spec.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("embedding.model '" + spec
          + "' is not one of all-minilm-l6-v2, all-minilm-l6-v2-q, bge-small-en-v15-q, ollama:<model>, openai:<model>");
    }
    String provider = spec.substring(0, colon);
    String name = spec.substring(colon + 1);
    if (baseUrl == null || baseUrl.isBlank()) {
      throw new IllegalArgumentException("embedding.model " + spec + " needs embedding.base.url");
    }
    EmbeddingModel m = switch (provider) {
      case "ollama" -> OllamaEmbeddingModel.builder().baseUrl(baseUrl).modelName(name).timeout(Duration.ofSeconds(60)).build();
      case "openai" -> OpenAiEmbeddingModel.builder().baseUrl(baseUrl).apiKey(apiKey == null || apiKey.isBlank() ? "none" : apiKey)
          .modelName(name).timeout(Duration.ofSeconds(60)).build();
      default -> throw new IllegalArgumentException("embedding.model provider must be ollama or openai, not '" + provider + "'");
    };
    return new Langchain4jEmbedder(spec, m, batchSize);
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    if (dimension < 0) {
      dimension = embed("dimension probe").length;
    }
    return dimension;
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i += batchSize) {
      List<TextSegment> batch = texts.subList(i, Math.min(texts.size(), i + batchSize)).stream().map(TextSegment::from).toList();
      for (Embedding e : model.embedAll(batch).content()) {
        out.add(Vectors.normalize(e.vector()));
      }
    }
    if (!out.isEmpty()) {
      dimension = out.get(0).length;
    }
    return out;
  }
}
