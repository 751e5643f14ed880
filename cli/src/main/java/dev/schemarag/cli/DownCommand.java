package dev.schemarag.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code ./schemarag down}: stops every process {@code up} started, and PostgreSQL; leaves nothing running. */
@Command(name = "down", description = "Stop the stack of ./schemarag up: SIGTERM to each process, SIGKILL after the grace period; then PostgreSQL (its data deleted).")
final class DownCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--grace", defaultValue = "30", description = "seconds a process has to stop after SIGTERM before it is killed (default ${DEFAULT-VALUE})")
  int graceSeconds;

  @Override
  public Integer call() {
    if (graceSeconds < 0) {
      throw new IllegalArgumentException("--grace must not be negative");
    }
    System.out.println(ProcessStack.of(main.config()).down(Duration.ofSeconds(graceSeconds), System.out));
    return 0;
  }
}
