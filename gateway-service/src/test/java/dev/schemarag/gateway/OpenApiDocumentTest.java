package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenApiDocumentTest {

  @Test
  void theDocumentIsOpenApi3AndListsEveryRoute() throws Exception {
    JsonNode doc = new ObjectMapper().readTree(Gateway.openApi());
    assertThat(doc.get("openapi").asText()).startsWith("3.");
    assertThat(doc.get("paths").fieldNames()).toIterable().containsExactlyInAnyOrder("/api/v1/questions", "/api/v1/questions/{id}",
        "/api/v1/schema/grounding", "/api/v1/databases", "/api/v1/openapi.json", "/health/live", "/health/ready");
    assertThat(doc.at("/components/securitySchemes/bearer/scheme").asText()).isEqualTo("bearer");
  }

  @Test
  void everyFieldAnAnswerOrAFailureCarriesIsDocumented() throws Exception {
    JsonNode schemas = new ObjectMapper().readTree(Gateway.openApi()).at("/components/schemas");
    QueryAnswered a = QueryAnswered.newBuilder().setQueryId("q").setDatabaseId("erp").setQuestion("?").setTables(List.of())
        .setAttempts(1).setAnsweredAtMs(0).build();
    assertThat(schemas.at("/Answer/properties").fieldNames()).toIterable().containsAll(OutcomeJson.answer(a).keySet());
    QueryFailed f = QueryFailed.newBuilder().setQueryId("q").setDatabaseId("erp").setQuestion("?").setErrorClass("sql_error")
        .setStage("execute").setMessage("m").setAttempts(1).setFailedAtMs(0).build();
    // A failure is a problem document: its fields are the problem's extensions ("status" is the problem's own, the HTTP status).
    assertThat(schemas.at("/Problem/properties").fieldNames()).toIterable().containsAll(OutcomeJson.failure(f).keySet());
  }
}
