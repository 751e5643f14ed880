package dev.schemarag.core.answer;

/** Turns a prompt into a model reply. Implementations talk to an LLM; failures to reach it are {@link GeneratorException}s. */
@FunctionalInterface
public interface SqlGenerator {

  /** @param prompt the system message (instructions) and the user message (schema data and question) */
  String complete(Prompts.Prompt prompt);

  /** The model could not be reached or answered with an error: an infrastructure failure, never retried. */
  class GeneratorException extends RuntimeException {
    public GeneratorException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
