package dev.schemarag.infra;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** Waits until a broker answers metadata requests. */
public final class KafkaReadiness {
  private KafkaReadiness() {}

  public static void await(String bootstrapServers, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    try (Admin admin = Admin.create(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000))) {
      while (System.nanoTime() < deadline) {
        try {
          if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          last = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new LocalInfraException("interrupted waiting for Kafka at " + bootstrapServers, e);
        }
      }
    }
    throw new LocalInfraException("Kafka at " + bootstrapServers + " did not become ready in " + timeout.toSeconds() + " s"
        + (last == null ? "" : ": " + last.getMessage()));
  }
}
