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
}
