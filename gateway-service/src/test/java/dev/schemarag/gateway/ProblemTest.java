package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.events.nlq.QueryFailed;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProblemTest {

  private static QueryFailed failure(String errorClass) {
    return QueryFailed.newBuilder().setQueryId("q1").setDatabaseId("erp").setQuestion("q").setErrorClass(errorClass).setStage("generation")
        .setMessage("no LLM is configured").setAttempts(0).setFailedAtMs(0).build();
  }

  @Test
  void aFailedQuestionIsA422ProblemCarryingItsClassAndQueryIdWithTheStandardMembersIntact() {
    Map<String, Object> json = OutcomeJson.failureProblem(failure("generator_unavailable")).toJson("/api/v1/questions");
    assertThat(json).containsEntry("status", 422).containsEntry("type", "/problems/generator_unavailable")
        .containsEntry("error_class", "generator_unavailable").containsEntry("query_id", "q1").containsEntry("instance", "/api/v1/questions");
    assertThat((String) json.get("detail")).contains("generator_unavailable at generation: no LLM is configured");
    assertThat(json.keySet()).startsWith("type", "title", "status", "detail", "instance");
  }

  @Test
  void anUnknownDatabaseIsA404() {
    assertThat(OutcomeJson.failureProblem(failure("unknown_database")).status()).isEqualTo(404);
  }
}
