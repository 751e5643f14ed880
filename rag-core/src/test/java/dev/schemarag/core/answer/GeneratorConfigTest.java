package dev.schemarag.core.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.config.SchemaragConfig;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeneratorConfigTest {

  private static SchemaragConfig env(Map<String, String> env) {
    return SchemaragConfig.load(Optional.empty(), env, Map.of());
  }

  @Test
  void noModelConfiguredMeansNoGenerator() {
    assertThat(Langchain4jSqlGenerator.fromConfig(SchemaragConfig.defaults())).isEmpty();
  }

  @Test
  void urlAndModelFromTheEnvironmentGiveAGenerator() {
    assertThat(Langchain4jSqlGenerator.fromConfig(env(Map.of("SCHEMARAG_LLM_BASE_URL", "http://127.0.0.1:8000/v1",
        "SCHEMARAG_LLM_MODEL", "qwen2.5-coder")))).isPresent();
    assertThat(Langchain4jSqlGenerator.fromConfig(env(Map.of("SCHEMARAG_LLM_PROVIDER", "ollama",
        "SCHEMARAG_LLM_BASE_URL", "http://127.0.0.1:11434", "SCHEMARAG_LLM_MODEL", "llama3")))).isPresent();
  }

  @Test
  void halfAConfigurationIsAnErrorNamingTheMissingKey() {
    assertThatThrownBy(() -> Langchain4jSqlGenerator.fromConfig(env(Map.of("SCHEMARAG_LLM_MODEL", "m"))))
        .hasMessageContaining("llm.base.url is missing");
    assertThatThrownBy(() -> Langchain4jSqlGenerator.fromConfig(env(Map.of("SCHEMARAG_LLM_BASE_URL", "http://x",
        "SCHEMARAG_LLM_MODEL", "m", "SCHEMARAG_LLM_PROVIDER", "bard")))).hasMessageContaining("openai or ollama");
  }

  @Test
  void answerSettingsComeFromConfiguration() {
    AnswerEngine.Settings s = AnswerEngine.Settings.from(env(Map.of("SCHEMARAG_ANSWER_MAX_ATTEMPTS", "5")));
    assertThat(s.maxAttempts()).isEqualTo(5);
    assertThat(AnswerEngine.Settings.DEFAULT.maxAttempts()).isEqualTo(3);
    assertThatThrownBy(() -> AnswerEngine.Settings.from(env(Map.of("SCHEMARAG_ANSWER_MAX_ATTEMPTS", "0"))))
        .hasMessageContaining("answer.max.attempts");
  }
}
