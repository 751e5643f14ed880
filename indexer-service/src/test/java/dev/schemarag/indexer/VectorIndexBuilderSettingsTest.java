package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.config.SchemaragConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VectorIndexBuilderSettingsTest {

  private static VectorIndexBuilder.Settings from(Map<String, String> values) {
    return VectorIndexBuilder.Settings.from(SchemaragConfig.load(Optional.empty(), Map.of(), values));
  }

  @Test
  void defaultsWaitTwoSecondsAndGiveTheBuildHalfAGigabyte() {
    VectorIndexBuilder.Settings s = from(Map.of());
    assertThat(s.quiet()).isEqualTo(Duration.ofSeconds(2));
    assertThat(s.memory()).isEqualTo("512MB");
  }

  @Test
  void takesSizesInKilobytesMegabytesAndGigabytes() {
    assertThat(from(Map.of("indexer.vector.index.memory", "65536kB")).memory()).isEqualTo("65536kB");
    assertThat(from(Map.of("indexer.vector.index.memory", " 2GB ")).memory()).isEqualTo("2GB");
  }

  @Test
  void aSizeWithoutItsUnitIsAnErrorNamingTheKey() {
    assertThatThrownBy(() -> from(Map.of("indexer.vector.index.memory", "512")))
        .hasMessageContaining("indexer.vector.index.memory").hasMessageContaining("'512'");
    assertThatThrownBy(() -> from(Map.of("indexer.vector.index.memory", "512; DROP TABLE x")))
        .hasMessageContaining("indexer.vector.index.memory");
  }

  @Test
  void aNegativeQuietTimeIsAnErrorNamingTheKey() {
    assertThatThrownBy(() -> from(Map.of("indexer.vector.index.quiet.ms", "-1"))).hasMessageContaining("indexer.vector.index.quiet.ms");
  }
}
