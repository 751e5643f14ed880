package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveredEventsTest {

  @Test
  void anEventCommittedAfterAHigherOneIsStillDelivered() {
    // Session A draws id 30, session B id 31; B commits first.
    DeliveredEvents delivered = new DeliveredEvents(100, List.of(29L), false);
    delivered.add(31);

    assertThat(delivered.contains(30)).isFalse();
    delivered.add(30);
    assertThat(delivered.contains(30)).isTrue();
    assertThat(delivered.highest()).isEqualTo(31);
  }

  @Test
  void aReplayAfterARestartIsRecognised() {
    DeliveredEvents delivered = new DeliveredEvents(100, List.of(40L, 41L, 43L), true);

    assertThat(delivered.contains(41)).isTrue();
    assertThat(delivered.contains(12)).as("older than the tail read back").isTrue();
    assertThat(delivered.contains(42)).as("drawn before 43, not delivered yet").isFalse();
  }

  @Test
  void idsBelowTheWindowCountAsDelivered() {
    DeliveredEvents delivered = new DeliveredEvents(2, List.of(), false);
    delivered.add(5);
    delivered.add(6);
    delivered.add(7);

    assertThat(delivered.contains(5)).isTrue();
    assertThat(delivered.contains(4)).isTrue();
    assertThat(delivered.contains(8)).isFalse();
  }
}
