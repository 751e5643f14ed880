package dev.schemarag.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaragConfigTest {

  @TempDir Path dir;

  private Path file(String content) throws IOException {
    Path f = dir.resolve("schemarag.properties");
    Files.writeString(f, content);
    return f;
  }

  @Test
  void defaultsApplyWhenNothingIsSet() {
    SchemaragConfig c = SchemaragConfig.defaults();
    assertThat(c.getInt(ConfigKeys.RETRIEVAL_TOP_K)).isEqualTo(5);
    assertThat(c.getDouble(ConfigKeys.RETRIEVAL_THRESHOLD)).isEqualTo(0.3);
    assertThat(c.optional(ConfigKeys.DB_URL)).isEmpty();
    assertThat(c.sourceOf(ConfigKeys.TOPICS_PREFIX)).isEqualTo("default");
  }

  @Test
  void fileOverridesDefaultsAndEnvironmentOverridesFile() throws IOException {
    Path f = file("topics.prefix=acme\nretrieval.top.k=7\n");
    SchemaragConfig c = SchemaragConfig.load(Optional.of(f), Map.of("SCHEMARAG_RETRIEVAL_TOP_K", "9"), Map.of());
    assertThat(c.get(ConfigKeys.TOPICS_PREFIX)).isEqualTo("acme");
    assertThat(c.sourceOf(ConfigKeys.TOPICS_PREFIX)).isEqualTo("file " + f);
    assertThat(c.getInt(ConfigKeys.RETRIEVAL_TOP_K)).isEqualTo(9);
    assertThat(c.sourceOf(ConfigKeys.RETRIEVAL_TOP_K)).isEqualTo("env SCHEMARAG_RETRIEVAL_TOP_K");
  }

  @Test
  void explicitOverridesBeatEverything() throws IOException {
    Path f = file("db.url=jdbc:postgresql://file/db\n");
    SchemaragConfig c = SchemaragConfig.load(Optional.of(f), Map.of("SCHEMARAG_DB_URL", "jdbc:postgresql://env/db"),
        Map.of("db.url", "jdbc:postgresql://flag/db"));
    assertThat(c.get(ConfigKeys.DB_URL)).isEqualTo("jdbc:postgresql://flag/db");
  }

  @Test
  void environmentNamesAreDerivedFromKeys() {
    assertThat(ConfigKeys.DB_URL.envName()).isEqualTo("SCHEMARAG_DB_URL");
    assertThat(ConfigKeys.KAFKA_BOOTSTRAP.envName()).isEqualTo("SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS");
  }

  @Test
  void anUnknownKeyIsRejectedWithASuggestion() throws IOException {
    Path f = file("retrieval.topk=3\n");
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.of(f), Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'retrieval.topk'")
        .hasMessageContaining(f.toString())
        .hasMessageContaining("did you mean 'retrieval.top.k'");
  }

  @Test
  void aMissingFileIsNamed() {
    Path missing = dir.resolve("nope.properties");
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.of(missing), Map.of(), Map.of()))
        .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");
  }

  @Test
  void aBadNumberNamesTheKeyAndWhereItCameFrom() {
    SchemaragConfig c = SchemaragConfig.load(Optional.empty(), Map.of("SCHEMARAG_TOPICS_PARTITIONS", "three"), Map.of());
    assertThatThrownBy(() -> c.getInt(ConfigKeys.TOPICS_PARTITIONS))
        .hasMessageContaining("topics.partitions")
        .hasMessageContaining("'three'")
        .hasMessageContaining("env SCHEMARAG_TOPICS_PARTITIONS");
  }

  @Test
  void passThroughKeysAreStrippedOfTheirPrefix() throws IOException {
    Path f = file("debezium.poll.interval.ms=10\ndebezium.slot.name=schemarag\nkafka.acks=all\nkafka.bootstrap.servers=b:9092\n");
    SchemaragConfig c = SchemaragConfig.load(Optional.of(f), Map.of(), Map.of());
    assertThat(c.withPrefix("debezium.")).containsExactlyInAnyOrderEntriesOf(Map.of("poll.interval.ms", "10", "slot.name", "schemarag"));
    // declared keys are not passed through: the client gets bootstrap.servers from its own key
    assertThat(c.withPrefix("kafka.")).containsExactlyInAnyOrderEntriesOf(Map.of("acks", "all"));
    assertThat(c.get(ConfigKeys.KAFKA_BOOTSTRAP)).isEqualTo("b:9092");
  }

  @Test
  void everyKeyIsListedOnceWithADoc() {
    assertThat(ConfigKeys.ALL).extracting(ConfigKey::name).doesNotHaveDuplicates();
    assertThat(ConfigKeys.ALL).allSatisfy(k -> assertThat(k.doc()).isNotBlank());
  }
}
