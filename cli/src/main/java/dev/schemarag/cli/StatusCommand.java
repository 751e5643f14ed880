package dev.schemarag.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code ./schemarag status}: each process of the stack with its PID, whether it runs and is ready, and its health and metrics URLs. */
@Command(name = "status", description = "List each process of the stack of ./schemarag up: PID, alive and ready or not, health and metrics URLs."
    + " Exit code 0 when every process is alive and ready, else 1.")
final class StatusCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Override
  public Integer call() {
    return ProcessStack.of(main.config()).printStatus(System.out) ? 0 : 1;
  }
}
