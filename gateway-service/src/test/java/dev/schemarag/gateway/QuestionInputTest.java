package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.events.nlq.QuestionRequested;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class QuestionInputTest {

  private static void problem(ThrowingCallable c, String type, String detail) {
    assertThatThrownBy(c).isInstanceOfSatisfying(Problem.Raised.class, e -> {
      assertThat(e.problem().status()).isEqualTo(400);
      assertThat(e.problem().type()).isEqualTo("/problems/" + type);
      assertThat(e.problem().detail()).contains(detail);
    });
  }

  @Test
  void aWellFormedBodyBecomesAnEventCarryingItsOptionsAndTheAsker() {
    QuestionInput in = QuestionInput.fromJson("{\"question\": \"  How many orders? \", \"top_k\": 3, \"max_rows\": 10, \"execute\": false}",
        4000, false);
    QuestionRequested q = in.toEvent("demo", "alice");
    assertThat(q.getQuestion()).isEqualTo("How many orders?");
    assertThat(q.getDatabaseId()).isEqualTo("demo");
    assertThat(q.getRequestedBy()).isEqualTo("alice");
    assertThat(q.getOptions().getTopK()).isEqualTo(3);
    assertThat(q.getOptions().getMaxRows()).isEqualTo(10);
    assertThat(q.getOptions().getExecute()).isFalse();
    assertThat(q.getOptions().getGroundingOnly()).isFalse();
    assertThat(q.getQueryId()).isNotBlank();
  }

  @Test
  void groundingOnlyNeverExecutes() {
    QuestionRequested q = QuestionInput.fromJson("{\"question\": \"orders\"}", 4000, true).toEvent("demo", "bob");
    assertThat(q.getOptions().getGroundingOnly()).isTrue();
    assertThat(q.getOptions().getExecute()).isFalse();
    problem(() -> QuestionInput.fromJson("{\"question\": \"orders\", \"max_rows\": 3}", 4000, true), "invalid-field", "unknown field 'max_rows'");
  }

  @Test
  void eachBadBodyIsRefusedNamingItsProblem() {
    problem(() -> QuestionInput.fromJson("{\"question\": ", 4000, false), "malformed-json", "not valid JSON");
    problem(() -> QuestionInput.fromJson("[1,2]", 4000, false), "malformed-json", "JSON object");
    problem(() -> QuestionInput.fromJson("{}", 4000, false), "missing-field", "'question' is required");
    problem(() -> QuestionInput.fromJson("{\"question\": 42}", 4000, false), "invalid-field", "'question' must be a string");
    problem(() -> QuestionInput.fromJson("{\"question\": \"   \"}", 4000, false), "empty-question", "empty");
    problem(() -> QuestionInput.fromJson("{\"question\": \"" + "x".repeat(11) + "\"}", 10, false), "question-too-long", "11 characters; at most 10");
    problem(() -> QuestionInput.fromJson("{\"question\": \"q\", \"top_k\": 0}", 4000, false), "invalid-field", "'top_k' must be between 1");
    problem(() -> QuestionInput.fromJson("{\"question\": \"q\", \"top_k\": \"5\"}", 4000, false), "invalid-field", "'top_k' must be an integer");
    problem(() -> QuestionInput.fromJson("{\"question\": \"q\", \"sql\": \"DROP\"}", 4000, false), "invalid-field", "unknown field 'sql'");
    problem(() -> QuestionInput.fromJson("{\"question\": \"q\", \"database_id\": \"a b\"}", 4000, false), "invalid-field", "'database_id'");
  }

  @Test
  void toolArgumentsGetTheSameChecks() {
    QuestionInput in = QuestionInput.fromArguments(Map.of("question", "orders per month", "max_rows", 5.0, "database_id", "demo"), 4000, false);
    assertThat(in.maxRows()).contains(5);
    assertThat(in.databaseId()).isEqualTo(Optional.of("demo"));
    problem(() -> QuestionInput.fromArguments(Map.of(), 4000, false), "missing-field", "'question' is required");
    problem(() -> QuestionInput.fromArguments(Map.of("question", "q", "max_rows", 2.5), 4000, false), "invalid-field", "integer");
  }
}
