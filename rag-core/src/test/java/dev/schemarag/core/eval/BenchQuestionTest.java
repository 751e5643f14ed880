package dev.schemarag.core.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchQuestionTest {

  @Test
  void writtenQuestionsReadBackAsTheyWere(@TempDir Path dir) throws IOException {
    List<BenchQuestion> questions = List.of(
        new BenchQuestion("q-1", "Which \"owner\" paid the most?", List.of("dogs__owners", "dogs__treatments"),
            List.of("dogs__owners.owner_id", "dogs__treatments.cost")),
        new BenchQuestion("q-2", "What is the weather in Paris?", List.of(), List.of()));
    Path file = dir.resolve("sample.jsonl");
    BenchQuestion.write(file, questions);
    assertThat(BenchQuestion.load(file)).isEqualTo(questions);
  }
}
