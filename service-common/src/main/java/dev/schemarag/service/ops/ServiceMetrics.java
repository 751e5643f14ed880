package dev.schemarag.service.ops;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;

/**
 * The Prometheus registry of a service: every meter tagged {@code service=<name>}, with JVM
 * memory, GC, threads, class loading, CPU and uptime bound. Closing it stops the GC listener too.
 */
public final class ServiceMetrics implements AutoCloseable {

  /** Latency histograms span 1 ms to 5 minutes: finer or longer buckets would only add series. */
  public static final Duration MIN_LATENCY = Duration.ofMillis(1);
  public static final Duration MAX_LATENCY = Duration.ofMinutes(5);

  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gc;

  private ServiceMetrics(PrometheusMeterRegistry registry, JvmGcMetrics gc) {
    this.registry = registry;
    this.gc = gc;
  }

  public static ServiceMetrics create(String service) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags(Tags.of("service", service));
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    return new ServiceMetrics(registry, gc);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text exposition of every meter. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
