package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CaptureRestartsTest {
  private static final long S = 1_000_000_000L;

  @Test
  void failuresInARowDoubleTheWaitUpToTheMaximum() {
    CaptureRestarts r = new CaptureRestarts(Duration.ofSeconds(1), Duration.ofSeconds(30));
    long t = 0;
    StringBuilder waits = new StringBuilder();
    for (int i = 0; i < 7; i++) {
      Duration d = r.afterFailure(t, t + S);
      waits.append(d.toSeconds()).append(' ');
      t += d.toNanos() + S;
    }
    assertThat(waits.toString().trim()).isEqualTo("1 2 4 8 16 30 30");
    assertThat(r.total()).isEqualTo(7);
  }

  @Test
  void aCaptureThatStreamedLongerThanTheMaximumStartsTheCountOver() {
    CaptureRestarts r = new CaptureRestarts(Duration.ofSeconds(1), Duration.ofSeconds(30));
    r.afterFailure(0, S);
    r.afterFailure(2 * S, 3 * S);
    assertThat(r.afterFailure(5 * S, 6 * S)).isEqualTo(Duration.ofSeconds(4));
    assertThat(r.afterFailure(10 * S, 10 * S + 31 * S)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void refusesDelaysThatCannotGrow() {
    assertThatThrownBy(() -> new CaptureRestarts(Duration.ZERO, Duration.ofSeconds(1))).hasMessageContaining("0 < first <= max");
    assertThatThrownBy(() -> new CaptureRestarts(Duration.ofSeconds(2), Duration.ofSeconds(1))).hasMessageContaining("0 < first <= max");
  }
}
