package dev.schemarag.query;

import java.util.Optional;

/** What a question must be before retrieval runs: not empty, not longer than the configured cap. */
final class QuestionRules {
  private QuestionRules() {}

  /** The problem with the question, if it has one, in words that name it. */
  static Optional<String> problem(String question, int maxChars) {
    if (question == null || question.isBlank()) {
      return Optional.of("the question is empty");
    }
    if (question.length() > maxChars) {
      return Optional.of("the question has " + question.length() + " characters, more than the " + maxChars
          + " allowed (question.max.chars)");
    }
    return Optional.empty();
  }
}
