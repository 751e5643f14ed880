package dev.schemarag.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag up}: the production topology as processes (see {@link ProcessStack}). Returns
 * once every service answers {@code /health/ready} and the index holds every table; the processes
 * keep running until {@code ./schemarag down}.
 */
@Command(name = "up", description = "Run the production topology as processes: a KRaft broker, PostgreSQL and each service in its own JVM"
    + " (PID and log files in <local.dir>/stack), the sample ERP database indexed; returns once every service is ready.")
final class UpCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--timeout", defaultValue = "600", description = "seconds to wait for every service to be ready and the index to hold every table (default ${DEFAULT-VALUE})")
  int timeoutSeconds;

  @Option(names = "--pg-name", defaultValue = ProcessStack.DEFAULT_PG_NAME,
      description = "name of the local PostgreSQL cluster (scripts/local-pg.sh) when db.url is not set (default ${DEFAULT-VALUE})")
  String pgName;

  @Option(names = "--load-sample", description = "load the sample into a database given by db.url too (drops and recreates schemas hr, sales, finance, inventory, procurement, support)")
  boolean loadSample;

  @Override
  public Integer call() throws Exception {
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException("--timeout must be at least 1 second");
    }
    try {
      ProcessStack.of(main.config()).up(main.config(), new ProcessStack.UpOptions(pgName, loadSample, Duration.ofSeconds(timeoutSeconds)),
          System.out);
      return 0;
    } catch (java.util.concurrent.TimeoutException | IllegalStateException e) {
      System.err.println("schemarag: up failed: " + e.getMessage());
      return 1;
    }
  }
}
