package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command of {@code ./schemarag}, nested ones included, answers {@code --help} with its usage. */
class CliHelpTest {

  /** The command paths below the root, e.g. [ask], [bench], [bench, freshness]. */
  private static List<List<String>> commandPaths(CommandLine command, List<String> path) {
    List<List<String>> paths = new ArrayList<>();
    command.getSubcommands().forEach((name, sub) -> {
      List<String> subPath = new ArrayList<>(path);
      subPath.add(name);
      paths.add(subPath);
      paths.addAll(commandPaths(sub, subPath));
    });
    return paths;
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exitCode = cli.execute(args.toArray(String[]::new));
    return new Run(exitCode, out.toString(), err.toString());
  }

  @Test
  void everyCommandAndSubcommandAnswersHelpWithItsUsage() {
    List<List<String>> paths = commandPaths(new CommandLine(new Main()), List.of());
    paths.add(0, List.of());
    assertThat(paths).contains(List.of("ask"), List.of("config"), List.of("up"), List.of("status"), List.of("down"), List.of("bench", "freshness"), List.of("bench", "answer"));
    for (List<String> path : paths) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      Run r = run(args);
      String name = String.join(" ", path);
      assertThat(r.exitCode()).as("exit code of %s --help (stderr: %s)", name, r.err()).isZero();
      assertThat(r.out()).as("usage of %s", name)
          .startsWith("Usage: " + ("schemarag " + name).trim() + " ")
          .contains("-h, --help");
    }
  }

  @Test
  void askHelpListsItsOptions() {
    Run r = run(List.of("ask", "--help"));
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("QUESTION", "--max-rows", "--top-k", "--no-execute");
  }
}
