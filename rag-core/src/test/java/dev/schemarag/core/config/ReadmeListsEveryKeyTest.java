package dev.schemarag.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's configuration table is the user's view of {@link ConfigKeys}: it must not fall behind. */
class ReadmeListsEveryKeyTest {

  @Test
  void everyKeyAndItsDefaultAreInTheReadme() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    for (ConfigKey k : ConfigKeys.ALL) {
      String row = "| `" + k.name() + "` | " + (k.defaultValue().isEmpty() ? "" : "`" + k.defaultValue() + "`");
      assertThat(readme).as("README row for %s", k.name()).contains(row);
    }
  }

  @Test
  void everyPerSourceKeyIsInTheReadme() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    for (String key : ConfigKeys.SOURCE_KEYS.keySet()) {
      assertThat(readme).as("README row for sources.<id>.%s", key).contains("| `" + ConfigKeys.SOURCE_PREFIX + "<id>." + key + "` |");
    }
  }

  @Test
  void everyVariableThatIsNoKeyIsInTheReadme() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    for (String variable : ConfigKeys.NON_KEY_VARIABLES.keySet()) {
      assertThat(readme).as("README mentions %s", variable).contains("`" + variable + "`");
    }
  }
}
