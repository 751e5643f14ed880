package dev.schemarag.service.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** No broker and no database: only what happens before a readiness probe reaches them. */
class ServiceOpsTest {

  private static final String NO_BROKER = "127.0.0.1:1";

  @Test
  void aTakenPortIsRefusedNamingItsConfigurationKey() {
    SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), Map.of("query.http.port", "0"));
    try (ServiceOps first = ServiceOps.start("query-service", config, ConfigKeys.QUERY_HTTP_PORT, NO_BROKER, () -> {
      throw new java.sql.SQLException("no database here");
    }, ServiceMetrics.create("query-service"), Map.of())) {
      SchemaragConfig taken = config.with(Map.of("query.http.port", Integer.toString(first.port())));
      assertThatThrownBy(() -> ServiceOps.start("query-service", taken, ConfigKeys.QUERY_HTTP_PORT, NO_BROKER, () -> {
        throw new java.sql.SQLException("no database here");
      }, ServiceMetrics.create("query-service"), Map.of()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("127.0.0.1:" + first.port())
          .hasMessageContaining("set query.http.port (SCHEMARAG_QUERY_HTTP_PORT) to another port, or 0 for a free one");
    }
  }

  @Test
  void theDefaultsBindLoopbackOnOnePortPerService() {
    SchemaragConfig defaults = SchemaragConfig.defaults();
    assertThat(defaults.get(ConfigKeys.HTTP_HOST)).isEqualTo("127.0.0.1");
    assertThat(java.util.Set.of(defaults.getInt(ConfigKeys.INGEST_HTTP_PORT), defaults.getInt(ConfigKeys.INDEXER_HTTP_PORT),
        defaults.getInt(ConfigKeys.QUERY_HTTP_PORT))).hasSize(3);
  }
}
