package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IndexBenchProbeTest {

  private static Chunk chunk(int i, String text) {
    return new Chunk("c" + i, "db", "t" + i, ChunkKind.COLUMN, Optional.of("x"), List.of(), List.of(), 1, text, text, "e" + i, "h" + i);
  }

  @Test
  void theModelIsTimedOnDistinctTextsSpreadOverTheWholeSchema() {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      // Every other chunk is the one short text many tables share: the cache embeds it once.
      chunks.add(chunk(i, i % 2 == 0 ? "id bigint" : "table " + i + " column with a longer description"));
    }
    List<String> probe = IndexBench.probeTexts(chunks);
    assertThat(probe).hasSize(IndexBench.MODEL_PROBE).doesNotHaveDuplicates();
    assertThat(probe.stream().filter("id bigint"::equals)).hasSize(1);
    // 1,501 distinct texts: the last probe text is the 1,498th, "table 2995".
    assertThat(probe.get(probe.size() - 1)).as("reaches the last tables, not only the first").startsWith("table 2995 ");
  }

  @Test
  void aSmallSchemaIsTimedOnAllItsDistinctTexts() {
    List<String> probe = IndexBench.probeTexts(List.of(chunk(1, "a"), chunk(2, "b"), chunk(3, "a")));
    assertThat(probe).containsExactly("a", "b");
  }
}
