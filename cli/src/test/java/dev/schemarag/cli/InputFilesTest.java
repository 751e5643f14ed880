package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFilesTest {

  @Test
  void aMissingFileOrAFolderIsRefusedWithWhatItIsFor(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("q.jsonl"), "{}");
    assertThat(InputFiles.existing("questions file", file)).isEqualTo(file);
    assertThatThrownBy(() -> InputFiles.existing("questions file", dir.resolve("nope.jsonl")))
        .hasMessage("questions file " + dir.resolve("nope.jsonl") + " does not exist");
    assertThatThrownBy(() -> InputFiles.existing("schema file", dir))
        .hasMessage("schema file " + dir + " is a folder, not a file");
  }
}
