package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PID files of the stack without starting it: what is stale is recognised, and nothing but the stack's own processes is signalled. */
class ProcessStackTest {

  @TempDir Path dir;

  /** A stack in {@code <dir>/stack} whose state says it started a broker of its own. */
  private ProcessStack stackWithState() throws Exception {
    ProcessStack stack = new ProcessStack(ProcessStack.stackDir(dir), dir.resolve("home"));
    Files.createDirectories(stack.dir());
    Files.writeString(stack.dir().resolve("stack.properties"), "home=" + dir.resolve("home") + "\nkafka.port=9092\n");
    return stack;
  }

  @Test
  void aPidFileNamingAnotherLiveProgramIsStaleAndDownNeverSignalsIt() throws Exception {
    ProcessStack stack = stackWithState();
    long self = ProcessHandle.current().pid();
    for (ProcessStack.Proc p : ProcessStack.ALL) {
      Files.writeString(stack.pidFile(p), self + "\n");
    }

    assertThat(ProcessStack.ALL).allSatisfy(p -> assertThat(stack.pid(p)).as(p.name()).isEmpty());
    assertThat(stack.status()).allSatisfy(s -> {
      assertThat(s.alive()).isFalse();
      assertThat(s.pid()).hasValue(self);
    });

    String said = stack.down(Duration.ofSeconds(1), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(said).doesNotContain("stopped").contains("nothing left running");
    assertThat(ProcessHandle.current().isAlive()).isTrue();
    assertThat(ProcessStack.ALL).allSatisfy(p -> assertThat(stack.pidFile(p)).doesNotExist());
    assertThat(stack.readState()).isEmpty();
  }

  @Test
  void aPidFileOfAnExitedProcessIsStale() throws Exception {
    ProcessStack stack = stackWithState();
    Process exited = new ProcessBuilder("true").start();
    exited.waitFor();
    Files.writeString(stack.pidFile(ProcessStack.QUERY), exited.pid() + "\n");

    assertThat(stack.pid(ProcessStack.QUERY)).isEmpty();
    assertThat(ProcessStack.runsIn(dir)).isFalse();
    assertThat(ProcessStack.runningState(dir)).isEmpty();
  }

  @Test
  void statusWithoutAStackSaysHowToStartOne() {
    ProcessStack stack = new ProcessStack(dir, dir);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    assertThat(stack.printStatus(new PrintStream(out, true, StandardCharsets.UTF_8))).isFalse();
    assertThat(stack.status()).isEmpty();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("./schemarag up");
    assertThat(stack.down(Duration.ofSeconds(1), System.out)).contains("nothing to stop");
  }

  @Test
  void aSecondInstanceHasItsOwnNamePidFileAndUrlTheSameJvmOptionsAndTheStateListsIt() throws Exception {
    ProcessStack stack = stackWithState();
    ProcessStack.Proc query2 = ProcessStack.QUERY.instance(2);

    assertThat(query2.name()).isEqualTo("query-service-2");
    assertThat(query2.module()).isEqualTo("query-service");
    assertThat(query2.heap()).isEqualTo(ProcessStack.QUERY.heap());
    assertThat(query2.jvmOptions()).containsExactly(ProcessStack.QUERY_JIT);
    assertThat(query2.urlKey()).isNotEqualTo(ProcessStack.QUERY.urlKey());
    assertThat(stack.pidFile(query2)).isNotEqualTo(stack.pidFile(ProcessStack.QUERY));
    java.util.Properties state = new java.util.Properties();
    state.setProperty("instances", "query-service-2,indexer-service-2");
    assertThat(ProcessStack.procs(state)).endsWith(query2, ProcessStack.INDEXER.instance(2)).startsWith(ProcessStack.ALL.toArray(ProcessStack.Proc[]::new));
  }

  @Test
  void theGatewayAndTheBrokerRunNoSecondInstance() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcessStack.GATEWAY.instance(2)).hasMessageContaining("gateway-service");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcessStack.KAFKA.instance(2)).hasMessageContaining("kafka");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcessStack.QUERY.instance(1)).hasMessageContaining("#1");
  }

  @Test
  void assignedPartitionsAreSummedOverTheClientsOfAnInstance() {
    String metrics = "# TYPE kafka_consumer_coordinator_assigned_partitions gauge\n"
        + "kafka_consumer_coordinator_assigned_partitions{client_id=\"a\"} 2.0\n"
        + "kafka_consumer_coordinator_assigned_partitions{client_id=\"b\"} 1.0\n"
        + "kafka_consumer_coordinator_partition_assigned_latency_avg{client_id=\"a\"} 7.0\n";
    assertThat(ChaosRun.assignedPartitions(metrics)).isEqualTo(3);
  }
}
