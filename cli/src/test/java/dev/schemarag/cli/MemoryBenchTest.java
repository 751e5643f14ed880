package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryBenchTest {

  @Test
  void readsTheG1HeapAndLeavesMetaspaceOut() {
    String reply = """
        12345:
         garbage-first heap   total 262144K, used 21178K [0x00000000c0000000, 0x0000000100000000)
          region size 1024K, 3 young (3072K), 0 survivors (0K)
         Metaspace       used 52480K, committed 53248K, reserved 1114112K
          class space    used 6789K, committed 7168K, reserved 1048576K
        """;
    assertThat(MemoryBench.heap(reply)).isEqualTo(new MemoryBench.Heap(21178, 262144));
  }

  @Test
  void addsTheGenerationsOfTheParallelCollector() {
    String reply = """
         PSYoungGen      total 76288K, used 2621K [0x0000000715580000, 0x000000071aa80000, 0x00000007c0000000)
          eden space 65536K, 4% used [0x0000000715580000,0x000000071580f750,0x0000000719580000)
         ParOldGen       total 175104K, used 1000K [0x00000005c0000000, 0x00000005cab00000, 0x0000000715580000)
         Metaspace       used 3000K, committed 3200K, reserved 1056768K
        """;
    assertThat(MemoryBench.heap(reply)).isEqualTo(new MemoryBench.Heap(3621, 251392));
  }

  @Test
  void aReplyWithoutHeapFiguresIsAnErrorQuotingIt() {
    assertThatThrownBy(() -> MemoryBench.heap("12345:\nCommand not supported\n")).hasMessageContaining("Command not supported");
  }

  @Test
  void readsThisJvmsResidentMemory() {
    assertThat(MemoryBench.procStatusBytes("self", "VmRSS:")).isGreaterThan(1 << 20);
    assertThat(MemoryBench.procStatusBytes("self", "NoSuchField:")).isEqualTo(-1);
  }
}
