package dev.schemarag.cli;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/** The CLI's side of a service's {@code /health/ready}: is it ready, and waiting until it is. */
final class ServiceHealth {
  private ServiceHealth() {}

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** Empty when {@code baseUrl/health/ready} answers 200; else why not (its body, or why it did not answer). */
  static Optional<String> notReady(String baseUrl) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/health/ready")).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Optional.empty() : Optional.of(r.body().strip().replace('\n', ';').replace(";", "; "));
    } catch (java.io.IOException e) {
      return Optional.of("no answer from " + baseUrl + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }

  /**
   * Returns once {@code service}'s readiness endpoint answers 200; says once on {@code out} what it
   * waits for. Throws naming the last reason when {@code timeout} passes first.
   */
  static void awaitReady(String service, String baseUrl, Duration timeout, PrintStream out) throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Optional<String> problem = notReady(baseUrl);
    if (problem.isPresent()) {
      out.println("waiting for the " + service + " to be ready (" + baseUrl + "/health/ready: " + problem.get() + ")");
    }
    while (problem.isPresent()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("the " + service + " was not ready within " + timeout.toSeconds() + " s: " + problem.get());
      }
      Thread.sleep(250);
      problem = notReady(baseUrl);
    }
  }
}
