package dev.schemarag.core.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class Langchain4jEmbedderTest {

  /** A langchain4j model that records the texts it is given. */
  static final class RecordingModel implements EmbeddingModel {
    final List<String> seen = new ArrayList<>();

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
      segments.forEach(s -> seen.add(s.text()));
      return Response.from(segments.stream().map(s -> Embedding.from(new float[] {s.text().length(), 1f})).toList());
    }
  }

  @Test
  void embedsQuestionsAndStoredTextsWithTheModelsPrefixes() {
    RecordingModel model = new RecordingModel();
    Langchain4jEmbedder e = new Langchain4jEmbedder("e5-test", model, 2, "query: ", "passage: ");
    e.embed("overdue invoices");
    e.embedAll(List.of("customer_invoices", "due_date", "amount"));
    assertEquals(List.of("query: overdue invoices", "passage: customer_invoices", "passage: due_date", "passage: amount"), model.seen);
  }

  @Test
  void embedsTextsAsTheyAreWithoutPrefixes() {
    RecordingModel model = new RecordingModel();
    Langchain4jEmbedder e = new Langchain4jEmbedder("plain", model, 64);
    e.embed("overdue invoices");
    e.embedAll(List.of("customer_invoices"));
    assertEquals(List.of("overdue invoices", "customer_invoices"), model.seen);
  }

  @Test
  void cachingEmbedderEmbedsAQuestionAsAQuestion() {
    RecordingModel model = new RecordingModel();
    CachingEmbedder e = new CachingEmbedder(new Langchain4jEmbedder("e5-test", model, 64, "query: ", "passage: "), new InMemoryEmbeddingCache());
    e.embed("overdue invoices");
    e.embedAll(List.of("customer_invoices"));
    assertEquals(List.of("query: overdue invoices", "passage: customer_invoices"), model.seen);
  }

  @Test
  void onlyE5ModelsCarryPrefixes() {
    for (Langchain4jEmbedder.InProcessModel m : Langchain4jEmbedder.IN_PROCESS) {
      boolean e5 = m.id().startsWith("e5-");
      assertEquals(e5 ? "query: " : "", m.queryPrefix(), m.id());
      assertEquals(e5 ? "passage: " : "", m.passagePrefix(), m.id());
    }
    Set<String> ids = Langchain4jEmbedder.IN_PROCESS.stream().map(Langchain4jEmbedder.InProcessModel::id).collect(Collectors.toSet());
    assertEquals(Set.of("all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v15", "bge-small-en-v15-q", "e5-small-v2", "e5-small-v2-q"), ids);
  }

  @Test
  void rejectsAnUnknownModelNamingTheAcceptedOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Langchain4jEmbedder.create("e5-large", "", "", 64));
    assertTrue(e.getMessage().contains("'e5-large'") && e.getMessage().contains("e5-small-v2-q") && e.getMessage().contains("ollama:<model>"),
        e.getMessage());
  }

  @Test
  void loadsTheQuantisedE5ModelFromItsOlderRelease() {
    // e5-small-v2-q comes from an older langchain4j release than the runtime: it must still load and embed.
    Langchain4jEmbedder e = Langchain4jEmbedder.create("e5-small-v2-q", "", "", 64);
    float[] question = e.embed("which customers have overdue invoices");
    List<float[]> stored = e.embedAll(List.of("customer invoices: amount, due date, paid at", "weather stations: temperature, wind"));
    assertEquals(384, question.length);
    assertTrue(Vectors.dot(question, stored.get(0)) > Vectors.dot(question, stored.get(1)));
  }
}
