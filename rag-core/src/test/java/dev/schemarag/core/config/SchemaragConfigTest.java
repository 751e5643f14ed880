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
  void anUnknownVariableStopsLoadingWithTheClosestKey() {
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.empty(), Map.of("SCHEMARAG_DOCS_DIR", "/data/schemas"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown variable SCHEMARAG_DOCS_DIR: did you mean SCHEMARAG_DOCS_ROOT?");
  }

  @Test
  void everyUnknownVariableIsNamedInOneError() {
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.empty(),
        Map.of("SCHEMARAG_LLM_URL", "http://x", "SCHEMARAG_DB_URLL", "jdbc:postgresql://h/db", "SCHEMARAG_DB_URL", "jdbc:postgresql://h/db"),
        Map.of()))
        .hasMessageContaining("unknown variable SCHEMARAG_LLM_URL: did you mean SCHEMARAG_LLM_BASE_URL?")
        .hasMessageContaining("unknown variable SCHEMARAG_DB_URLL: did you mean SCHEMARAG_DB_URL?")
        .hasMessageNotContaining("unknown variable SCHEMARAG_DB_URL:");
  }

  @Test
  void aVariableNearNoKeyIsRefusedWithoutAGuess() {
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.empty(), Map.of("SCHEMARAG_XYZZY", "1"), Map.of()))
        .hasMessageStartingWith("unknown variable SCHEMARAG_XYZZY (")
        .hasMessageNotContaining("did you mean");
  }

  @Test
  void knownNonKeyVariablesAndOtherProgramsVariablesAreLeftAlone() {
    Map<String, String> env = Map.of("SCHEMARAG_HOME", "/opt/schemarag", "SCHEMARAG_JAVA_OPTS", "-Xmx1g",
        "SCHEMARAG_PG_NAME", "demo", "PATH", "/usr/bin", "KAFKA_HEAP_OPTS", "-Xmx1g", "schemarag_docs_dir", "lower case is not ours");
    SchemaragConfig c = SchemaragConfig.load(Optional.empty(), env, Map.of());
    assertThat(c.get(ConfigKeys.LOCAL_PG_NAME)).isEqualTo("demo");
    assertThat(c.sourceOf(ConfigKeys.LOCAL_PG_NAME)).isEqualTo("default");
    assertThat(ConfigKeys.NON_KEY_VARIABLES).containsKeys("SCHEMARAG_CONFIG", "SCHEMARAG_HOME", "SCHEMARAG_JAVA_OPTS");
  }

  @Test
  void passThroughVariablesReachTheirLibraryAndBeatTheFile() throws IOException {
    Path f = file("kafka.max.poll.records=10\nkafka.acks=1\n");
    SchemaragConfig c = SchemaragConfig.load(Optional.of(f), Map.of("SCHEMARAG_KAFKA_MAX_POLL_RECORDS", "50",
        "SCHEMARAG_STREAMS_NUM_STREAM_THREADS", "2", "SCHEMARAG_DEBEZIUM_POLL_INTERVAL_MS", "10"), Map.of());
    assertThat(c.withPrefix("kafka.")).containsExactlyInAnyOrderEntriesOf(Map.of("max.poll.records", "50", "acks", "1"));
    assertThat(c.withPrefix("streams.")).containsExactlyInAnyOrderEntriesOf(Map.of("num.stream.threads", "2"));
    assertThat(c.withPrefix("debezium.")).containsExactlyInAnyOrderEntriesOf(Map.of("poll.interval.ms", "10"));
    assertThat(c.passThrough()).containsEntry("kafka.max.poll.records", "50").doesNotContainKey("kafka.bootstrap.servers");
    assertThat(c.sourceOf("kafka.max.poll.records")).isEqualTo("env SCHEMARAG_KAFKA_MAX_POLL_RECORDS");
    assertThat(c.sourceOf("kafka.acks")).isEqualTo("file " + f);
    assertThat(SchemaragConfig.keyOf("SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS")).contains("kafka.bootstrap.servers");
    assertThat(SchemaragConfig.keyOf("SCHEMARAG_HOME")).isEmpty();
  }

  @Test
  void aPassThroughTypoOfADeclaredKeyIsRefused() throws IOException {
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.empty(), Map.of("SCHEMARAG_KAFKA_BOOTSTRAP_SERVER", "b:9092"), Map.of()))
        .hasMessageContaining("SCHEMARAG_KAFKA_BOOTSTRAP_SERVER would be passed through as 'kafka.bootstrap.server'")
        .hasMessageContaining("did you mean SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS?");
    Path f = file("kafka.bootstrap.server=b:9092\n");
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.of(f), Map.of(), Map.of()))
        .hasMessageContaining("'kafka.bootstrap.server'")
        .hasMessageContaining("did you mean 'kafka.bootstrap.servers'?");
  }

  @Test
  void anUnknownFileKeyIsOfferedTheKeyOfItsGroup() throws IOException {
    Path f = file("docs.dir=/data/schemas\n");
    assertThatThrownBy(() -> SchemaragConfig.load(Optional.of(f), Map.of(), Map.of()))
        .hasMessageContaining("did you mean 'docs.root'?");
  }

  @Test
  void anUnknownOverrideIsRefused() {
    assertThatThrownBy(() -> SchemaragConfig.defaults().with(Map.of("retrieval.top-k", "3")))
        .hasMessageContaining("'retrieval.top-k' (override)")
        .hasMessageContaining("did you mean 'retrieval.top.k'?");
  }

  @Test
  void everyKeyIsListedOnceWithADoc() {
    assertThat(ConfigKeys.ALL).extracting(ConfigKey::name).doesNotHaveDuplicates();
    assertThat(ConfigKeys.ALL).allSatisfy(k -> assertThat(k.doc()).isNotBlank());
  }
}
