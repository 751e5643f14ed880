package dev.schemarag.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
}
