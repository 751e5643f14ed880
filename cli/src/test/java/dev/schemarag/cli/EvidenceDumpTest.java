package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvidenceDumpTest {

  @Test
  void writesAJsonLinePerRowAndAppendsOnlyWhenAsked(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("evidence.jsonl");
    Files.writeString(file, "{\"id\":\"stale\"}\n");
    try (EvidenceDump.Writer w = new EvidenceDump.Writer(file, false)) {
      w.write(Map.of("id", "q1"));
      w.write(Map.of("id", "q2"));
      assertThat(w.rows()).isEqualTo(2);
    }
    assertThat(Files.readAllLines(file)).containsExactly("{\"id\":\"q1\"}", "{\"id\":\"q2\"}");

    try (EvidenceDump.Writer w = new EvidenceDump.Writer(file, true)) {
      w.write(Map.of("id", "q3"));
    }
    assertThat(Files.readAllLines(file)).containsExactly("{\"id\":\"q1\"}", "{\"id\":\"q2\"}", "{\"id\":\"q3\"}");
  }
}
