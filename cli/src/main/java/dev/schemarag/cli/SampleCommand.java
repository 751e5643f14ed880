package dev.schemarag.cli;

import dev.schemarag.core.config.SchemaragConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code ./schemarag sample load}: the sample ERP database into db.url (or the local cluster "sample"). */
@Command(name = "sample", description = "Load the sample ERP database (81 tables in 6 module schemas, rows, docs in data/schemas/erp/docs).")
final class SampleCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @picocli.CommandLine.Parameters(index = "0", description = "load")
  String action;

  @Option(names = "--dir", description = "folder with schema.sql and data.sql (default data/schemas/erp)")
  Path dir = SampleDatabase.DEFAULT_DIR;

  @Override
  public Integer call() throws Exception {
    if (!"load".equals(action)) {
      throw new IllegalArgumentException("unknown action '" + action + "'; the sample command knows: load");
    }
    SchemaragConfig config = main.config();
    try (Databases dbs = Databases.resolve(config, "sample")) {
      long t0 = System.nanoTime();
      SampleDatabase.load(dbs.source(), dir);
      System.out.printf("sample ERP database loaded into %s in %.1f s: schemas %s; docs in %s%n", dbs.url(),
          (System.nanoTime() - t0) / 1e9, SampleDatabase.schemasCsv(), dir.resolve("docs"));
    }
    return 0;
  }
}
