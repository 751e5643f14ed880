package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CoreWaitsTest {

  @Test
  void aQuestionsLineSplitsItsThreadsTimeFromWhatTheOtherThreadsTookMeanwhile() {
    long ms = 1_000_000;
    CoreWaits.Sample from = new CoreWaits.Sample(Map.of(
        1L, new CoreWaits.Times("main", 100 * ms, 10 * ms),
        2L, new CoreWaits.Times("lexical-search", 50 * ms, 5 * ms),
        3L, new CoreWaits.Times("C2 CompilerThre", 500 * ms, 0),
        4L, new CoreWaits.Times("idle-thread", 7 * ms, 0)), 40 * ms, 60 * ms, 0, 5 * ms);
    CoreWaits.Sample to = new CoreWaits.Sample(Map.of(
        1L, new CoreWaits.Times("main", 190 * ms, 40 * ms),
        2L, new CoreWaits.Times("lexical-search", 54 * ms, 8 * ms),
        3L, new CoreWaits.Times("C2 CompilerThre", 530 * ms, 0),
        4L, new CoreWaits.Times("idle-thread", 7 * ms, 0),
        5L, new CoreWaits.Times("new-thread", 2 * ms, 0)), 52 * ms, 61 * ms, 35 * ms, 40 * ms);
    String line = CoreWaits.between(from, new CoreWaits.Times("self", 120 * ms, 12 * ms), new CoreWaits.Times("self", 138 * ms, 21 * ms),
        to, 1, "lexical-search", 2);
    assertThat(line).contains("the question's thread 18.0 / 9.0").contains("within 30 to 40 ms around it")
        .contains("lexical-search 4.0 / 3.0").contains("busiest other threads: C2 CompilerThre 30.0, new-thread 2.0;")
        .doesNotContain("idle-thread").doesNotContain("main").contains("the broker 12.0, PostgreSQL 1.0");
  }

  @Test
  void thisJvmsThreadsAreReadWhereThereIsAProcFileSystem() {
    CoreWaits.Sample s = CoreWaits.sample(OptionalLong.empty(), OptionalLong.empty());
    assertThat(s.endNanos()).isGreaterThanOrEqualTo(s.startNanos());
    if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
      assertThat(s.threads()).containsKey(CoreWaits.currentThreadId());
      assertThat(CoreWaits.self().onCoreNanos()).isPositive();
    }
  }
}
