package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigException;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.infra.LocalInfraException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code ./schemarag}: the embedded default and the tools around it. {@code scope = INHERIT} gives
 * every subcommand, to any depth, {@code --help} and {@code --version} (CliHelpTest walks the tree).
 */
@Command(name = "schemarag", mixinStandardHelpOptions = true, version = "schemarag 0.1.0", scope = ScopeType.INHERIT,
    description = "Live schema RAG for PostgreSQL over Kafka.",
    subcommands = {DemoCommand.class, UpCommand.class, StatusCommand.class, DownCommand.class, AskCommand.class, McpCommand.class, EvalCommand.class, CalibrateCommand.class, FitSelectorCommand.class, BenchCommand.class,
        SampleCommand.class, ConfigCommand.class})
public final class Main {

  @Option(names = "--config", description = "properties file (default: $SCHEMARAG_CONFIG, else ./schemarag.properties when present)")
  Path configFile;

  /** The configuration: file, then environment, then defaults. */
  SchemaragConfig config() {
    if (configFile != null) {
      return SchemaragConfig.load(Optional.of(configFile), System.getenv(), Map.of());
    }
    return SchemaragConfig.fromEnvironment(Map.of());
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof ConfigException || e instanceof LocalInfraException || e instanceof IllegalArgumentException) {
        cmd.getErr().println("schemarag: " + e.getMessage());
        return 2;
      }
      throw e;
    });
    System.exit(cli.execute(args));
  }
}
