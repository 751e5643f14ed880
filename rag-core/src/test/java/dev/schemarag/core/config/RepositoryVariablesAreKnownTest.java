package dev.schemarag.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code SCHEMARAG_*} variable that the compose file, the README, the launcher and the
 * scripts mention is one the loader accepts: a typo there fails the build, not a deployment.
 */
class RepositoryVariablesAreKnownTest {

  /** A variable name, unless it is quoted as the subject of the loader's error ("unknown variable SCHEMARAG_X"). */
  private static final Pattern VARIABLE = Pattern.compile("(?<!unknown variable\\s)\\bSCHEMARAG_[A-Z0-9_]*[A-Z0-9]");

  /** The repository root: the first folder upwards from the module holding docker-compose.yml. */
  static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docker-compose.yml")) && Files.isRegularFile(dir.resolve("README.md"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no docker-compose.yml above " + Path.of("").toAbsolutePath());
  }

  private static Set<String> variablesIn(Path file) throws IOException {
    Set<String> found = new TreeSet<>();
    Matcher m = VARIABLE.matcher(Files.readString(file));
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  private static List<String> refused(Path file) throws IOException {
    List<String> refused = new ArrayList<>();
    for (String variable : variablesIn(file)) {
      try {
        SchemaragConfig.keyOf(variable);
      } catch (ConfigException e) {
        refused.add(file.getFileName() + ": " + e.getMessage());
      }
    }
    return refused;
  }

  @Test
  void everyVariableOfTheComposeFileIsAKey() throws IOException {
    Path compose = repositoryRoot().resolve("docker-compose.yml");
    assertThat(variablesIn(compose)).contains("SCHEMARAG_DB_URL", "SCHEMARAG_DOCS_ROOT");
    assertThat(refused(compose)).isEmpty();
  }

  @Test
  void everyVariableOfTheReadmeIsKnown() throws IOException {
    Path readme = repositoryRoot().resolve("README.md");
    assertThat(variablesIn(readme)).contains("SCHEMARAG_DB_URL", "SCHEMARAG_CONFIG");
    assertThat(refused(readme)).isEmpty();
  }

  @Test
  void everyVariableOfTheLauncherScriptsAndCiIsKnown() throws IOException {
    Path root = repositoryRoot();
    List<Path> files = new ArrayList<>(List.of(root.resolve("schemarag"), root.resolve(".ci/run")));
    try (Stream<Path> scripts = Files.list(root.resolve("scripts"))) {
      scripts.filter(Files::isRegularFile).forEach(files::add);
    }
    List<String> refused = new ArrayList<>();
    for (Path f : files) {
      refused.addAll(refused(f));
    }
    assertThat(refused).isEmpty();
  }

  @Test
  void aTypoIsCaught(@TempDir Path dir) throws IOException {
    Path typo = Files.writeString(dir.resolve("docker-compose.yml"), "environment:\n  SCHEMARAG_DOCS_DIR: /data/schemas\n");
    assertThat(refused(typo)).singleElement().asString().contains("did you mean SCHEMARAG_DOCS_ROOT?");
  }
}
