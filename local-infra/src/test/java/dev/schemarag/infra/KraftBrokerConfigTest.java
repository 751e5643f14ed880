package dev.schemarag.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Formatting the broker's storage: a restart (after kill -9 too) keeps the cluster id of the first start. */
class KraftBrokerConfigTest {

  @TempDir Path dir;

  @Test
  void formattingAgainKeepsTheClusterIdOfTheFirstStart() {
    Properties props = KraftBrokerConfig.properties(dir.resolve("data"), 19092, 19093);

    KraftBrokerConfig.format(props, dir.resolve("server.properties"));
    String first = KraftBrokerConfig.existingClusterId(dir.resolve("data")).orElseThrow();
    KraftBrokerConfig.format(props, dir.resolve("server.properties"));

    assertThat(KraftBrokerConfig.existingClusterId(dir.resolve("data"))).hasValue(first);
  }

  @Test
  void anUnformattedDirectoryHasNoClusterId() {
    assertThat(KraftBrokerConfig.existingClusterId(dir.resolve("none"))).isEmpty();
  }
}
