package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.config.SchemaragConfig;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** How soon a killed indexer's tasks go to the others: the session timeout its stream thread's consumer gets. */
class IndexerGroupMembershipTest {

  private static Properties streams(Map<String, String> overrides) {
    return IndexerService.streamsProperties(SchemaragConfig.load(Optional.empty(), Map.of(), overrides), "127.0.0.1:9092");
  }

  @Test
  void theMainConsumerGivesUpAKilledMemberAfterTheGroupSessionTimeout() {
    Properties p = streams(Map.of());
    assertThat(p).containsEntry("main.consumer.session.timeout.ms", 10_000).containsEntry("main.consumer.heartbeat.interval.ms", 3_000);

    p = streams(Map.of("group.session.timeout.ms", "6000"));
    assertThat(p).containsEntry("main.consumer.session.timeout.ms", 6_000).containsEntry("main.consumer.heartbeat.interval.ms", 2_000);
  }

  @Test
  void aKafkaSessionTimeoutOfTheUserWins() {
    Properties p = streams(Map.of("kafka.session.timeout.ms", "30000"));
    assertThat(p).containsEntry("session.timeout.ms", "30000").doesNotContainKey("main.consumer.session.timeout.ms");
  }

  @Test
  void refusesANonPositiveSessionTimeout() {
    assertThatThrownBy(() -> streams(Map.of("group.session.timeout.ms", "0"))).hasMessageContaining("group.session.timeout.ms must be a positive");
  }
}
