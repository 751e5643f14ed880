package dev.schemarag.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

  @Test
  void neverHandsOutAPortTwice() {
    FreePorts ports = new FreePorts();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 300; i++) {
      assertThat(seen.add(ports.next())).as("port %d handed out before", i).isTrue();
    }
  }

  @Test
  void neverHandsOutAReservedPort() {
    FreePorts probe = new FreePorts();
    FreePorts ports = new FreePorts();
    // every port the kernel offers in a run of binds is reserved first: the next one must differ from all
    Set<Integer> reserved = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      reserved.add(ports.reserve(probe.next()));
    }
    for (int i = 0; i < 50; i++) {
      assertThat(reserved).doesNotContain(ports.next());
    }
  }
}
