package dev.schemarag.service.ops;

import dev.schemarag.core.config.ConfigKey;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.service.ServiceSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Health and metrics of one service process: its registry, an admin client for the broker check,
 * and the HTTP endpoint. Ready = the broker answers, the store answers, and the service's own
 * checks hold (its partitions assigned, its capture streaming). Closing it stops all three.
 */
public final class ServiceOps implements AutoCloseable {

  /** How long one dependency may take to answer a readiness probe. */
  public static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

  private final ServiceMetrics metrics;
  private final Admin admin;
  private final OpsServer server;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ServiceOps(ServiceMetrics metrics, Admin admin, OpsServer server) {
    this.metrics = metrics;
    this.admin = admin;
    this.server = server;
  }

  /**
   * Serves on {@code http.host} and the service's port key.
   *
   * @param store the database the service cannot work without
   * @param own the service's own checks, after "broker" and "store"
   */
  public static ServiceOps start(String service, SchemaragConfig config, ConfigKey portKey, String bootstrapServers,
                                 ConnectionSource store, ServiceMetrics metrics, Map<String, Readiness.Check> own) {
    Map<String, Object> props = new HashMap<>(ServiceSettings.kafka(config, bootstrapServers));
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, service + "-health");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CHECK_TIMEOUT.toMillis());
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) CHECK_TIMEOUT.toMillis());
    Admin admin = Admin.create(props);
    Readiness readiness = new Readiness()
        .add("broker", ReadinessChecks.brokerReachable(admin, CHECK_TIMEOUT))
        .add("store", ReadinessChecks.storeReachable(store, CHECK_TIMEOUT));
    own.forEach(readiness::add);
    try {
      OpsServer server = OpsServer.start(service, config.get(ConfigKeys.HTTP_HOST), config.getInt(portKey), readiness, metrics::scrape);
      return new ServiceOps(metrics, admin, server);
    } catch (IllegalStateException e) {
      admin.close(Duration.ofSeconds(2));
      throw new IllegalStateException(e.getMessage() + "; set " + portKey.name() + " (" + portKey.envName()
          + ") to another port, or 0 for a free one", e);
    } catch (RuntimeException e) {
      admin.close(Duration.ofSeconds(2));
      throw e;
    }
  }

  public ServiceMetrics metrics() {
    return metrics;
  }

  public String url() {
    return server.url();
  }

  public int port() {
    return server.port();
  }

  /** Idempotent: a failed start and the shutdown hook may both close it. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.close();
    admin.close(Duration.ofSeconds(2));
    metrics.close();
  }
}
