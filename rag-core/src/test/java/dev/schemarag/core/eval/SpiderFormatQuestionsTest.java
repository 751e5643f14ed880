package dev.schemarag.core.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpiderFormatQuestionsTest {

  private static Table table(String name) {
    return new Table(name, Optional.empty(), List.of(Column.of("id", "int")), Optional.empty());
  }

  /** A union schema as the bench's: each database's tables under {@code <db_id>__<table>}. */
  private static final SchemaModel UNION = new SchemaModel("union", List.of(table("concert_singer__singer"),
      table("concert_singer__concert"), table("concert_singer__singer_in_concert"), table("pets_1__Pets")), List.of());

  private static Path file(Path dir, String json) throws IOException {
    Path f = dir.resolve("dev.json");
    Files.writeString(f, json);
    return f;
  }

  @Test
  void readsTheTablesEachGoldQueryReadsUnderTheUnionSchemasNames(@TempDir Path dir) throws IOException {
    Path f = file(dir, """
        [{"db_id": "concert_singer", "SpiderQuestion": "How many singers do we have?", "SpiderSynQuestion": "How many vocalists do we have?",
          "query": "SELECT count(*) FROM singer"},
         {"db_id": "concert_singer", "SpiderSynQuestion": "Names of vocalists in no show",
          "query": "SELECT name FROM singer WHERE singer_id NOT IN (SELECT T2.singer_id FROM concert AS T1 JOIN singer_in_concert AS T2 ON T1.concert_id = T2.concert_id)"},
         {"db_id": "pets_1", "SpiderSynQuestion": "How many animals?", "query": "SELECT count(*) FROM PETS"}]
        """);
    assertThat(SpiderFormatQuestions.isSpiderFormat(f)).isTrue();
    List<BenchQuestion> questions = SpiderFormatQuestions.load(f, "SpiderSynQuestion", UNION);
    assertThat(questions).extracting(BenchQuestion::question)
        .containsExactly("How many vocalists do we have?", "Names of vocalists in no show", "How many animals?");
    assertThat(questions.get(0).goldTables()).containsExactly("concert_singer__singer");
    assertThat(questions.get(1).goldTables())
        .containsExactlyInAnyOrder("concert_singer__singer", "concert_singer__concert", "concert_singer__singer_in_concert");
    assertThat(questions.get(2).goldTables()).as("names match whatever their case").containsExactly("pets_1__Pets");
    assertThat(questions).extracting(BenchQuestion::id).containsExactly("dev-0", "dev-1", "dev-2");
  }

  @Test
  void anEntryItCannotReadIsAnErrorThatNamesIt(@TempDir Path dir) throws IOException {
    Path noField = file(dir, "[{\"db_id\": \"pets_1\", \"question\": \"How many pets?\", \"query\": \"SELECT 1 FROM pets\"}]");
    assertThatThrownBy(() -> SpiderFormatQuestions.load(noField, "SpiderSynQuestion", UNION))
        .hasMessageContaining("entry 0").hasMessageContaining("SpiderSynQuestion");
    Path unknown = file(dir, "[{\"db_id\": \"pets_1\", \"question\": \"How many owners?\", \"query\": \"SELECT count(*) FROM owners\"}]");
    assertThatThrownBy(() -> SpiderFormatQuestions.load(unknown, "question", UNION))
        .hasMessageContaining("entry 0").hasMessageContaining("owners").hasMessageContaining("pets_1");
    Path broken = file(dir, "[{\"db_id\": \"pets_1\", \"question\": \"How many?\", \"query\": \"SELECT FROM WHERE\"}]");
    assertThatThrownBy(() -> SpiderFormatQuestions.load(broken, "question", UNION)).hasMessageContaining("cannot be parsed");
  }

  @Test
  void tellsAJsonArrayFromTheJsonlOfTheTeamsSets(@TempDir Path dir) throws IOException {
    Path jsonl = dir.resolve("q.jsonl");
    Files.writeString(jsonl, "{\"question\": \"How many?\", \"gold_tables\": []}\n");
    assertThat(SpiderFormatQuestions.isSpiderFormat(jsonl)).isFalse();
  }
}
