package dev.schemarag.cli;

import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.indexer.IndexerServiceMain;
import dev.schemarag.ingest.IngestServiceMain;
import dev.schemarag.query.QueryService;
import dev.schemarag.query.QueryServiceMain;
import dev.schemarag.service.ops.ServiceMetrics;
import dev.schemarag.service.ops.ServiceOps;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * The demo runs the three services in one JVM; each still gets its own health and metrics
 * endpoint on its own port, as its main would serve it. Their URLs go into the demo's state file,
 * where {@code ask} finds the query service's readiness endpoint.
 */
final class DemoHealth implements AutoCloseable {

  static final String INGEST_URL = "ingest.health.url";
  static final String INDEXER_URL = "indexer.health.url";
  static final String QUERY_URL = "query.health.url";

  final ServiceMetrics ingestMetrics = ServiceMetrics.create("ingest-service");
  final ServiceMetrics indexerMetrics = ServiceMetrics.create("indexer-service");
  final ServiceMetrics queryMetrics = ServiceMetrics.create("query-service");
  private final List<ServiceOps> served = new ArrayList<>();
  private final SchemaragConfig config;
  private final String bootstrap;
  private final LocalStackState state;

  DemoHealth(SchemaragConfig config, String bootstrap, LocalStackState state) {
    this.config = config;
    this.bootstrap = bootstrap;
    this.state = state;
  }

  void serveIndexing(LivePipeline pipeline, ConnectionSource monitored, PrintStream out) {
    remember(INGEST_URL, add(IngestServiceMain.serveHealth(config, bootstrap, monitored, ingestMetrics, pipeline.ingest())), out);
    remember(INDEXER_URL, add(IndexerServiceMain.serveHealth(config, bootstrap, pipeline.pool(), indexerMetrics, pipeline::indexer)), out);
  }

  void serveQuery(Supplier<QueryService> service, ConnectionSource db, PrintStream out) {
    remember(QUERY_URL, add(QueryServiceMain.serveHealth(config, bootstrap, db, queryMetrics, service)), out);
  }

  private ServiceOps add(ServiceOps ops) {
    served.add(ops);
    return ops;
  }

  private void remember(String key, ServiceOps ops, PrintStream out) {
    Properties p = state.read().orElseGet(Properties::new);
    p.setProperty(key, ops.url());
    state.write(p);
    out.printf("  %-16s %s/health/ready  %s/metrics%n", key.substring(0, key.indexOf('.')) + " health", ops.url(), ops.url());
  }

  @Override
  public void close() {
    served.forEach(ServiceOps::close);
    for (ServiceMetrics m : List.of(ingestMetrics, indexerMetrics, queryMetrics)) {
      if (served.stream().noneMatch(ops -> ops.metrics() == m)) {
        m.close();
      }
    }
  }
}
