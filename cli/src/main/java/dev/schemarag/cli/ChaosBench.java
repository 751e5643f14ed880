package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.infra.ScriptedLlmServer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./schemarag bench chaos}: kill -9 under load, then count what was lost (see {@link ChaosRun}).
 * It runs a process stack of its own in {@code <local.dir>/chaos} (its own broker and PostgreSQL
 * cluster, free ports) with a scripted OpenAI-protocol model in this JVM, and takes it down at the end.
 */
@Command(name = "chaos", description = "Kill -9 the ingest, indexer and query services, the broker and PostgreSQL at random moments while"
    + " schema and doc changes and questions flow; then check that the index equals the catalog and every question got an outcome."
    + " Then 2 query services and 2 indexers: shared partitions, takeover, throughput with 1 and 2.")
final class ChaosBench implements Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--rounds", defaultValue = "3", description = "rounds; each kills every one of the 5 processes once, in a random order (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--seed", defaultValue = "15", description = "seed of the kill order and moments and of the changes (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--kill-gap", defaultValue = "8", description = "seconds between kills: from half of it to one and a half times it (default ${DEFAULT-VALUE})")
  int killGapSeconds;

  @Option(names = "--burst", defaultValue = "60", description = "questions per throughput burst (default ${DEFAULT-VALUE})")
  int burst;

  @Option(names = "--single-only", description = "only the single-instance rounds, not the 2-instance part")
  boolean singleOnly;

  @Option(names = "--timeout", defaultValue = "300", description = "seconds to wait for readiness after a kill, and for the pipeline to settle (default ${DEFAULT-VALUE})")
  int timeoutSeconds;

  @Option(names = "--pg-name", defaultValue = "chaos-bench", description = "name of the bench's PostgreSQL cluster (scripts/local-pg.sh) (default ${DEFAULT-VALUE})")
  String pgName;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  @Override
  public Integer call() throws Exception {
    if (rounds < 1 || killGapSeconds < 1 || burst < 1 || timeoutSeconds < 1) {
      throw new IllegalArgumentException("--rounds, --kill-gap, --burst and --timeout must be at least 1");
    }
    Main main = (Main) spec.parent().parent().userObject();
    SchemaragConfig base = main.config();
    Path localDir = LocalStackState.at(base).dir().resolve("chaos");
    String home = System.getenv("SCHEMARAG_HOME");
    ChaosRun.Settings settings = new ChaosRun.Settings(rounds, seed, Duration.ofSeconds(killGapSeconds), Duration.ofMillis(1500),
        Duration.ofMillis(1000), burst, !singleOnly, Duration.ofSeconds(timeoutSeconds));
    Map<String, Object> figures = run(base, localDir, Path.of(home == null || home.isBlank() ? "." : home), pgName, settings, System.out);
    String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures);
    System.out.println(text);
    if (json != null) {
      Files.writeString(json, text);
      System.out.println("written to " + json);
    }
    return ChaosRun.holds(figures) ? 0 : 1;
  }

  /** Up, the chaos run, down (also when the run failed); the figures. */
  static Map<String, Object> run(SchemaragConfig base, Path localDir, Path home, String pgName, ChaosRun.Settings settings, PrintStream out)
      throws Exception {
    ProcessStack stack = new ProcessStack(ProcessStack.stackDir(localDir), home);
    if (ProcessStack.runsIn(localDir)) {
      throw new IllegalArgumentException("a chaos stack runs in " + localDir + " (another bench?); stop it with SCHEMARAG_LOCAL_DIR="
          + localDir + " ./schemarag down");
    }
    try (ScriptedLlmServer model = new ScriptedLlmServer(prompt -> "```sql\n" + ChaosRun.SQL + "\n```")) {
      Map<String, String> own = new HashMap<>(Map.of("local.dir", localDir.toString(), "ingest.http.port", "0", "indexer.http.port", "0",
          "query.http.port", "0", "gateway.http.port", "0", "llm.provider", "openai", "llm.base.url", model.openAiUrl(), "llm.model", "scripted"));
      // It kills its own broker and cluster, never the ones configured for other use.
      own.put("db.url", "");
      own.put("kafka.bootstrap.servers", "");
      SchemaragConfig config = base.with(own);
      try {
        stack.up(config, new ProcessStack.UpOptions(pgName, false, settings.timeout().multipliedBy(2)), out);
        return new ChaosRun(stack, settings, out).run();
      } finally {
        out.println(stack.down(Duration.ofSeconds(20), out));
      }
    }
  }
}
