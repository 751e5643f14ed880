package dev.schemarag.service.ops;

import dev.schemarag.core.store.ConnectionSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.streams.KafkaStreams;

/** The readiness checks the services share. Each is bounded in time, so a probe never hangs on a dead peer. */
public final class ReadinessChecks {
  private ReadinessChecks() {}

  /** The broker answers a cluster description within {@code timeout}. */
  public static Readiness.Check brokerReachable(Admin admin, Duration timeout) {
    return () -> {
      try {
        int nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis())).nodes()
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
        return nodes > 0 ? Optional.empty() : Optional.of("the cluster reports no broker");
      } catch (TimeoutException e) {
        return Optional.of("no answer from the broker within " + timeout.toMillis() + " ms");
      } catch (java.util.concurrent.ExecutionException e) {
        return Optional.of("broker unreachable: " + e.getCause().getMessage());
      }
    };
  }

  /** A connection to the database opens and is valid within {@code timeout}. */
  public static Readiness.Check storeReachable(ConnectionSource db, Duration timeout) {
    return () -> {
      try (Connection c = db.open()) {
        return c.isValid((int) Math.max(1, timeout.toSeconds())) ? Optional.empty()
            : Optional.of("the database connection is not valid");
      } catch (java.sql.SQLException e) {
        return Optional.of("database unreachable: " + e.getMessage());
      }
    };
  }

  /**
   * The streams run with their tasks assigned: RUNNING. REBALANCING means partitions are being
   * (re)assigned, CREATED that the streams have not started, ERROR or NOT_RUNNING that they stopped.
   */
  public static Readiness.Check streamsRunning(KafkaStreams streams) {
    return () -> {
      KafkaStreams.State s = streams.state();
      return s == KafkaStreams.State.RUNNING ? Optional.empty()
          : Optional.of("streams are " + s + (s == KafkaStreams.State.REBALANCING ? " (partitions being assigned)" : ""));
    };
  }
}
