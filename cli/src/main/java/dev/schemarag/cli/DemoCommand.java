package dev.schemarag.cli;

import dev.schemarag.core.config.SchemaragConfig;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code ./schemarag demo}: the whole stack on this machine, until Ctrl-C or {@code demo --stop}. */
@Command(name = "demo", description = "Run the embedded default: local PostgreSQL + pgvector, a KRaft broker, the topics; Ctrl-C stops it.")
final class DemoCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--stop", description = "stop a demo running in another terminal and everything it started")
  boolean stop;

  @Override
  public Integer call() throws Exception {
    SchemaragConfig config = main.config();
    LocalStackState state = LocalStackState.at(config);
    if (stop) {
      System.out.println(LocalStack.stopRunning(state));
      return 0;
    }
    LocalStack stack = LocalStack.start(config, state, System.out);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("\nschemarag demo: stopping ...");
      stack.close();
      System.out.println("schemarag demo: stopped, nothing left running.");
      stopped.countDown();
    }, "demo-stop"));
    System.out.println("Ready. Ctrl-C (or ./schemarag demo --stop in another terminal) stops everything.");
    stopped.await();
    return 0;
  }
}
