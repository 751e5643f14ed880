package dev.schemarag.service.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class OpsServerTest {

  private static final java.util.function.Supplier<String> NO_METRICS = () -> "";

  @Test
  void readyIs503NamingWhatIsMissingUntilEveryCheckHolds() {
    AtomicBoolean assigned = new AtomicBoolean();
    Readiness readiness = new Readiness()
        .add("broker", Optional::empty)
        .add("partitions", () -> assigned.get() ? Optional.empty() : Optional.of("2 of 2 workers wait for their partition assignment"));

    OpsServer.Response before = OpsServer.respond("GET", "/health/ready", readiness, NO_METRICS);
    assertThat(before.status()).isEqualTo(503);
    assertThat(before.body()).isEqualTo("not ready\nbroker: ok\npartitions: 2 of 2 workers wait for their partition assignment\n");

    assigned.set(true);
    OpsServer.Response after = OpsServer.respond("GET", "/health/ready", readiness, NO_METRICS);
    assertThat(after.status()).isEqualTo(200);
    assertThat(after.body()).isEqualTo("ready\nbroker: ok\npartitions: ok\n");
  }

  @Test
  void aCheckThatThrowsFailsWithItsMessageAndTheOthersStillRun() {
    Readiness readiness = new Readiness()
        .add("store", () -> {
          throw new IllegalStateException("connection refused");
        })
        .add("broker", Optional::empty);
    Readiness.Report report = readiness.evaluate();
    assertThat(report.ready()).isFalse();
    assertThat(report.checks()).containsEntry("store", "IllegalStateException: connection refused").containsEntry("broker", "ok");
  }

  @Test
  void aCheckNameIsDefinedOnce() {
    Readiness readiness = new Readiness().add("broker", Optional::empty);
    assertThatThrownBy(() -> readiness.add("broker", Optional::empty)).hasMessageContaining("'broker' is already defined");
  }

  @Test
  void liveAnswersWithoutRunningTheChecks() {
    Readiness readiness = new Readiness().add("broker", () -> {
      throw new AssertionError("live must not probe dependencies");
    });
    assertThat(OpsServer.respond("GET", "/health/live", readiness, NO_METRICS).status()).isEqualTo(200);
  }

  @Test
  void unknownPathsAndMethodsAreRefusedNamingWhatIsServed() {
    Readiness readiness = new Readiness();
    OpsServer.Response notFound = OpsServer.respond("GET", "/healthz", readiness, NO_METRICS);
    assertThat(notFound.status()).isEqualTo(404);
    assertThat(notFound.body()).contains("/healthz").contains("/health/ready").contains("/metrics");
    assertThat(OpsServer.respond("POST", "/metrics", readiness, NO_METRICS).status()).isEqualTo(405);
  }

  @Test
  void metricsAreThePrometheusTextOfTheRegistryWithJvmMetersAndTheServiceTag() {
    try (ServiceMetrics metrics = ServiceMetrics.create("query-service")) {
      Counter.builder("schemarag.questions").tags("outcome", "answered", "failure_class", "none").register(metrics.registry())
          .increment(3);
      Timer timer = Timer.builder("schemarag.retrieval.duration").publishPercentileHistogram()
          .minimumExpectedValue(ServiceMetrics.MIN_LATENCY).maximumExpectedValue(ServiceMetrics.MAX_LATENCY).register(metrics.registry());
      timer.record(Duration.ofMillis(20));
      timer.record(Duration.ofMillis(40));

      OpsServer.Response r = OpsServer.respond("GET", "/metrics", new Readiness(), metrics::scrape);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
      assertThat(r.body())
          .contains("schemarag_questions_total{failure_class=\"none\",outcome=\"answered\",service=\"query-service\"} 3.0")
          .contains("schemarag_retrieval_duration_seconds_count{service=\"query-service\"} 2")
          .contains("schemarag_retrieval_duration_seconds_bucket{service=\"query-service\",le=\"+Inf\"} 2")
          .contains("jvm_memory_used_bytes{").contains("jvm_threads_live_threads{").contains("jvm_gc_");
    }
  }

  @Test
  void servesOverHttpOnAFreePortWhenThePortIsZero() throws Exception {
    AtomicBoolean ready = new AtomicBoolean();
    Readiness readiness = new Readiness().add("partitions", () -> ready.get() ? Optional.empty() : Optional.of("waiting"));
    try (ServiceMetrics metrics = ServiceMetrics.create("indexer-service");
         OpsServer server = OpsServer.start("indexer-service", "127.0.0.1", 0, readiness, metrics::scrape)) {
      assertThat(server.port()).isPositive();
      assertThat(server.url()).isEqualTo("http://127.0.0.1:" + server.port());
      HttpClient http = HttpClient.newHttpClient();
      assertThat(get(http, server.url() + "/health/live").statusCode()).isEqualTo(200);
      HttpResponse<String> notReady = get(http, server.url() + "/health/ready");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).contains("partitions: waiting");
      ready.set(true);
      assertThat(get(http, server.url() + "/health/ready").statusCode()).isEqualTo(200);
      HttpResponse<String> scrape = get(http, server.url() + "/metrics");
      assertThat(scrape.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
      assertThat(scrape.body()).contains("service=\"indexer-service\"");
    }
  }

  @Test
  void theContainerProbeExitsZeroOnlyWhenReady() {
    AtomicBoolean ready = new AtomicBoolean();
    Readiness readiness = new Readiness().add("capture", () -> ready.get() ? Optional.empty() : Optional.of("starting"));
    try (OpsServer server = OpsServer.start("ingest-service", "127.0.0.1", 0, readiness, NO_METRICS)) {
      assertThat(HealthProbe.probe(server.url() + "/health/ready")).isEqualTo(1);
      ready.set(true);
      assertThat(HealthProbe.probe(server.url() + "/health/ready")).isZero();
      int port = server.port();
      server.close();
      assertThat(HealthProbe.probe("http://127.0.0.1:" + port + "/health/ready")).isEqualTo(1);
    }
  }

  @Test
  void aPortOutOfRangeIsRefusedNamingTheService() {
    assertThatThrownBy(() -> OpsServer.start("query-service", "127.0.0.1", 70000, new Readiness(), NO_METRICS))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("query-service").hasMessageContaining("70000");
  }

  @Test
  void aTakenPortIsAClearError() throws Exception {
    try (OpsServer first = OpsServer.start("ingest-service", "127.0.0.1", 0, new Readiness(), NO_METRICS)) {
      assertThatThrownBy(() -> OpsServer.start("indexer-service", "127.0.0.1", first.port(), new Readiness(), NO_METRICS))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("indexer-service").hasMessageContaining(":" + first.port());
    }
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
