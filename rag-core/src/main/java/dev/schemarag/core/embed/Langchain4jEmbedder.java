package dev.schemarag.core.embed;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.ollama.OllamaEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link Embedder} over a langchain4j {@link EmbeddingModel}: in-process ONNX, Ollama or OpenAI-compatible.
 * Questions ({@link #embed}) and stored texts ({@link #embedAll}) may carry different prefixes, as models
 * trained on "query: " / "passage: " pairs expect; the prefixes belong to the model's spec, so the id
 * stored with every vector stands for the model and its prefixes together.
 */
public final class Langchain4jEmbedder implements Embedder {

  /**
   * An in-process model langchain4j ships, by the files its jar holds. The text prefixes are part of what a
   * stored vector means: changing them for an existing id would mix vectors of two different embeddings, so it
   * needs a new id.
   */
  record InProcessModel(String id, OnnxSessionModel.Files files, String queryPrefix, String passagePrefix) {}

  /** The in-process models, by {@code embedding.model} value. E5 was trained with "query: " / "passage: " prefixes. */
  static final List<InProcessModel> IN_PROCESS = List.of(
      new InProcessModel("all-minilm-l6-v2", files("all-minilm-l6-v2", PoolingMode.MEAN), "", ""),
      new InProcessModel("all-minilm-l6-v2-q", files("all-minilm-l6-v2-q", PoolingMode.MEAN), "", ""),
      new InProcessModel("bge-small-en-v15", files("bge-small-en-v1.5", PoolingMode.CLS), "", ""),
      new InProcessModel("bge-small-en-v15-q", files("bge-small-en-v1.5-q", PoolingMode.CLS), "", ""),
      new InProcessModel("e5-small-v2", files("e5-small-v2", PoolingMode.MEAN), "query: ", "passage: "),
      new InProcessModel("e5-small-v2-q", files("e5-small-v2-q", PoolingMode.MEAN), "query: ", "passage: "));

  /** The files of a langchain4j model jar (named as its own model class loads them), 384 dimensions each. */
  private static OnnxSessionModel.Files files(String name, PoolingMode pooling) {
    return new OnnxSessionModel.Files(name + ".onnx", name + "-tokenizer.json", pooling, 384);
  }

  private final String modelId;
  private final EmbeddingModel model;
  private final int batchSize;
  private final String queryPrefix;
  private final String passagePrefix;
  private volatile int dimension = -1;

  public Langchain4jEmbedder(String modelId, EmbeddingModel model, int batchSize) {
    this(modelId, model, batchSize, "", "");
  }

  Langchain4jEmbedder(String modelId, EmbeddingModel model, int batchSize, String queryPrefix, String passagePrefix) {
    this.modelId = modelId;
    this.model = model;
    this.batchSize = Math.max(1, batchSize);
    this.queryPrefix = queryPrefix;
    this.passagePrefix = passagePrefix;
  }

  /**
   * @param spec one of {@link #IN_PROCESS} (all-minilm-l6-v2, the default, all-minilm-l6-v2-q, bge-small-en-v15,
   *     bge-small-en-v15-q, e5-small-v2, e5-small-v2-q), ollama:MODEL or openai:MODEL
   * @param baseUrl endpoint for ollama: and openai: models
   */
  public static Langchain4jEmbedder create(String spec, String baseUrl, String apiKey, int batchSize) {
    return create(spec, baseUrl, apiKey, batchSize, false);
  }

  /** The model the configuration names ({@code embedding.*} keys), with {@code batchSize} texts per call. */
  public static Langchain4jEmbedder create(SchemaragConfig config, int batchSize) {
    return create(config.get(ConfigKeys.EMBEDDING_MODEL), config.get(ConfigKeys.EMBEDDING_BASE_URL), config.get(ConfigKeys.EMBEDDING_API_KEY),
        batchSize, config.getBoolean(ConfigKeys.EMBEDDING_ONNX_SPINNING));
  }

  /** The model the configuration names, with {@code embedding.batch.size} texts per call. */
  public static Langchain4jEmbedder create(SchemaragConfig config) {
    return create(config, config.getInt(ConfigKeys.EMBEDDING_BATCH));
  }

  private static Langchain4jEmbedder create(String spec, String baseUrl, String apiKey, int batchSize, boolean spinning) {
    for (InProcessModel m : IN_PROCESS) {
      if (m.id().equals(spec)) {
        return new Langchain4jEmbedder(spec, new OnnxSessionModel(m.files(), spinning), batchSize, m.queryPrefix(), m.passagePrefix());
      }
    }
    return remote(spec, baseUrl, apiKey, batchSize);
  }

  /** The accepted values of {@code embedding.model}, for messages. */
  static String acceptedSpecs() {
    return String.join(", ", IN_PROCESS.stream().map(InProcessModel::id).toList()) + ", ollama:<model>, openai:<model>";
  }

  private static Langchain4jEmbedder remote(String spec, String baseUrl, String apiKey, int batchSize) {
    int colon = spec.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("embedding.model '" + spec + "' is not one of " + acceptedSpecs());
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

  /** A question: embedded with the model's query prefix. */
  @Override
  public float[] embed(String text) {
    return embedPrefixed(List.of(text), queryPrefix).get(0);
  }

  /** Questions: embedded with the model's query prefix, in batches. */
  @Override
  public List<float[]> embedQuestions(List<String> texts) {
    return embedPrefixed(texts, queryPrefix);
  }

  /** Stored texts (chunks): embedded with the model's passage prefix. */
  @Override
  public List<float[]> embedAll(List<String> texts) {
    return embedPrefixed(texts, passagePrefix);
  }

  private List<float[]> embedPrefixed(List<String> texts, String prefix) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i += batchSize) {
      List<TextSegment> batch = texts.subList(i, Math.min(texts.size(), i + batchSize)).stream()
          .map(t -> TextSegment.from(prefix + t)).toList();
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
