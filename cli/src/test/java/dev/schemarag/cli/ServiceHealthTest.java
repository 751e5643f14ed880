package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.service.ops.OpsServer;
import dev.schemarag.service.ops.Readiness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServiceHealthTest {

  @Test
  void waitsForTheReadinessEndpointSayingOnceWhatIsMissing() throws Exception {
    AtomicInteger probes = new AtomicInteger();
    Readiness readiness = new Readiness().add("partitions",
        () -> probes.incrementAndGet() < 3 ? Optional.of("1 of 1 workers wait for their partition assignment") : Optional.empty());
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    try (OpsServer server = OpsServer.start("query-service", "127.0.0.1", 0, readiness, () -> "")) {
      ServiceHealth.awaitReady("query service", server.url(), Duration.ofSeconds(30), new PrintStream(said, true, StandardCharsets.UTF_8));
      assertThat(ServiceHealth.notReady(server.url())).isEmpty();
    }
    assertThat(said.toString(StandardCharsets.UTF_8)).hasLineCount(1)
        .contains("waiting for the query service to be ready").contains("partitions: 1 of 1 workers wait for their partition assignment");
  }

  @Test
  void givesUpAfterTheTimeoutNamingTheLastReason() {
    Readiness readiness = new Readiness().add("broker", () -> Optional.of("no answer from the broker within 3000 ms"));
    try (OpsServer server = OpsServer.start("query-service", "127.0.0.1", 0, readiness, () -> "")) {
      assertThatThrownBy(() -> ServiceHealth.awaitReady("query service", server.url(), Duration.ofMillis(500),
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
          .isInstanceOf(TimeoutException.class).hasMessageContaining("not ready within")
          .hasMessageContaining("broker: no answer from the broker within 3000 ms");
    }
  }

  @Test
  void aServiceThatDoesNotAnswerIsNotReady() {
    int port;
    try (OpsServer server = OpsServer.start("query-service", "127.0.0.1", 0, new Readiness(), () -> "")) {
      port = server.port();
    }
    assertThat(ServiceHealth.notReady("http://127.0.0.1:" + port)).hasValueSatisfying(p -> assertThat(p).startsWith("no answer from"));
  }
}
