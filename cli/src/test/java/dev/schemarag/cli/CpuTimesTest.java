package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CpuTimesTest {

  @Test
  void eachProcessCountsWhatItUsedBetweenTheSamplesAndTheRestOfTheCoresIsLeft() {
    CpuTimes.Sample from = new CpuTimes.Sample(0, 10.0, 2.0, 1.0, 5.0);
    CpuTimes.Sample to = new CpuTimes.Sample(10_000_000_000L, 25.0, 4.5, 3.0, 9.0);
    Map<String, Object> cpu = CpuTimes.between(from, to);
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(cpu).containsEntry("wall_s", 10.0).containsEntry("this_jvm_s", 15.0).containsEntry("of_which_jit_compilers_s", 2.5)
        .containsEntry("kafka_broker_s", 2.0).containsEntry("postgresql_s", 4.0).containsEntry("core_s", 10.0 * cores)
        .containsEntry("left_s", 10.0 * cores - 21.0);
    assertThat(CpuTimes.line(cpu)).contains("this JVM 15.0 s (its JIT compiler threads 2.5 s)").contains("the Kafka broker 2.0 s");
  }

  @Test
  void thisJvmReadsItsOwnTimeAndAProcessThatIsNotThereReadsZero() {
    CpuTimes.Sample s = CpuTimes.sample(OptionalLong.of(Long.MAX_VALUE), OptionalLong.empty());
    assertThat(s.jvm()).isPositive();
    assertThat(s.broker()).isZero();
    assertThat(s.postgres()).isZero();
  }

  @Test
  void anotherProcessIsReadFromProc() {
    org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self")), "no /proc here");
    // This JVM read as another process: it has used CPU, as its own bean says.
    CpuTimes.Sample s = CpuTimes.sample(OptionalLong.of(ProcessHandle.current().pid()), OptionalLong.of(ProcessHandle.current().pid()));
    assertThat(s.broker()).isPositive();
    assertThat(s.postgres()).isGreaterThanOrEqualTo(s.broker());
  }
}
