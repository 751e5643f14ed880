package dev.schemarag.core.answer;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/** A {@link SqlGenerator} over langchain4j: an OpenAI-compatible endpoint (vLLM, llama.cpp, LM Studio, OpenAI) or Ollama. */
public final class Langchain4jSqlGenerator implements SqlGenerator {

  private final ChatModel model;

  public Langchain4jSqlGenerator(ChatModel model) {
    this.model = model;
  }

  /**
   * @param provider openai (any OpenAI-compatible server) or ollama
   * @param baseUrl e.g. http://127.0.0.1:8000/v1 (openai) or http://127.0.0.1:11434 (ollama)
   */
  public static Langchain4jSqlGenerator create(String provider, String baseUrl, String modelName, String apiKey, Duration timeout) {
    if (baseUrl == null || baseUrl.isBlank() || modelName == null || modelName.isBlank()) {
      throw new IllegalArgumentException("an LLM needs both llm.base.url and llm.model");
    }
    ChatModel m = switch (provider.toLowerCase(Locale.ROOT)) {
      case "openai" -> OpenAiChatModel.builder().baseUrl(baseUrl).modelName(modelName)
          .apiKey(apiKey == null || apiKey.isBlank() ? "none" : apiKey).temperature(0.0).timeout(timeout).maxRetries(0).build();
      case "ollama" -> OllamaChatModel.builder().baseUrl(baseUrl).modelName(modelName).temperature(0.0).timeout(timeout)
          .maxRetries(0).build();
      default -> throw new IllegalArgumentException("llm.provider must be openai or ollama, not '" + provider + "'");
    };
    return new Langchain4jSqlGenerator(m);
  }

  /** The configured model, or empty when {@code llm.base.url} or {@code llm.model} is not set (no model: golden SQL or generator_unavailable). */
  public static Optional<SqlGenerator> fromConfig(SchemaragConfig c) {
    var url = c.optional(ConfigKeys.LLM_BASE_URL);
    var model = c.optional(ConfigKeys.LLM_MODEL);
    if (url.isEmpty() && model.isEmpty()) {
      return Optional.empty();
    }
    if (url.isEmpty() || model.isEmpty()) {
      throw new IllegalArgumentException("set both llm.base.url and llm.model (or neither): "
          + (url.isEmpty() ? "llm.base.url" : "llm.model") + " is missing");
    }
    return Optional.of(create(c.get(ConfigKeys.LLM_PROVIDER), url.get(), model.get(),
        c.get(ConfigKeys.LLM_API_KEY),
        Duration.ofMillis(c.getInt(ConfigKeys.LLM_TIMEOUT_MS))));
  }

  @Override
  public String complete(Prompts.Prompt prompt) {
    try {
      return model.chat(SystemMessage.from(prompt.system()), UserMessage.from(prompt.user())).aiMessage().text();
    } catch (RuntimeException e) {
      throw new GeneratorException("the LLM did not answer: " + e.getMessage(), e);
    }
  }
}
