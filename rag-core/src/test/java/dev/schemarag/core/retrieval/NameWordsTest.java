package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NameWordsTest {

  /**
   * A model of the test's own: the words of each synonym group share one direction, "supply" sits
   * at cosine 0.5 from the suppliers' and every other word points its own way (a seeded random
   * direction in 64 dimensions, nearly orthogonal to the rest).
   */
  static final class SynonymModel implements Embedder {
    final AtomicInteger texts = new AtomicInteger();

    @Override
    public String modelId() {
      return "synonyms-" + System.identityHashCode(this);
    }

    @Override
    public int dimension() {
      return 64;
    }

    @Override
    public List<float[]> embedAll(List<String> words) {
      texts.addAndGet(words.size());
      List<float[]> out = new ArrayList<>();
      for (String w : words) {
        out.add(switch (w) {
          case "vendors", "supplier" -> axis(0, 1);
          case "vocalists", "singer" -> axis(1, 1);
          case "supply" -> mix(0, 2);
          default -> random(w);
        });
      }
      return out;
    }

    private static float[] axis(int i, float length) {
      float[] v = new float[64];
      v[i] = length;
      return v;
    }

    /** Cosine 0.5 with axis {@code i}. */
    private static float[] mix(int i, int other) {
      float[] v = new float[64];
      v[i] = 0.5f;
      v[other] = (float) Math.sqrt(0.75);
      return v;
    }

    private static float[] random(String w) {
      Random r = new Random(w.hashCode());
      float[] v = new float[64];
      for (int i = 8; i < 64; i++) {
        v[i] = (float) r.nextGaussian();
      }
      return v;
    }
  }

  private static final SchemaModel SCHEMA = new SchemaModel("shop", List.of(
      new Table("procurement.supplier", Optional.empty(), List.of(Column.of("supplier_id", "int"), Column.of("qty_ordered", "int")),
          Optional.of("procurement")),
      new Table("music.singer", Optional.empty(), List.of(Column.of("singer_id", "int"), Column.of("stage_name", "text")),
          Optional.of("music"))), List.of());

  @Test
  void readsTheNamesWordsWithoutShortPiecesOrStopWords() {
    assertThat(NameWords.of(SCHEMA)).containsExactlyInAnyOrder("supplier", "qty", "ordered", "singer", "stage", "name");
  }

  @Test
  void findsTheQuestionsEnglishWordsTheSchemasTextDoesNotKnow() {
    Set<String> known = Set.of("singer", "orders");
    assertThat(NameWords.unknown("Which vendors sold the most orders to 'Contoso' and Fabrikam?", known::contains))
        .as("quoted values, capitalised names and stop words are left out").containsExactly("vendors", "sold", "most");
    assertThat(NameWords.unknown("How many singer names", known::contains)).containsExactly("names");
    assertThat(NameWords.unknown("xqzv orders", known::contains)).as("no English word").isEmpty();
  }

  @Test
  void searchesTheNameWordsNearestToAnUnknownWordFromTheSimilarityOn() {
    SynonymModel model = new SynonymModel();
    NameWords words = new NameWords();
    Map<String, Double> near = NameWords.nearest(List.of("vendors", "vocalists", "supply"), words.vocabulary(NameWords.of(SCHEMA), model), model);
    assertThat(near).containsOnlyKeys("supplier", "singer");
    assertThat(near.get("supplier")).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(near).as("a word at cosine 0.5 is related, not the same").doesNotContainKey("qty");
  }

  @Test
  void embedsEachEnglishWordOnceInAProcessAndForEachIndexOnlyTheNamesThatAreNoneOfThem() {
    SynonymModel model = new SynonymModel();
    NameWords words = new NameWords();
    NameWords.nearest(List.of("vendors"), words.vocabulary(NameWords.of(SCHEMA), model), model);
    int first = model.texts.get();
    NameWords.nearest(List.of("vendors"), words.vocabulary(NameWords.of(SCHEMA), model), model);
    assertThat(model.texts.get()).as("nothing embedded for the next version's vocabulary and a word asked before").isEqualTo(first);
    new NameWords().vocabulary(NameWords.of(SCHEMA), model);
    assertThat(model.texts.get() - first).as("another index embeds its own non-English name words only").isEqualTo(1);
  }

  @Test
  void aFirstQuestionEmbedsItsOwnWordsAndTheSchemasNotTheWholeEnglishList() {
    SynonymModel model = new SynonymModel();
    NameWords.nearest(List.of("vendors"), new NameWords().vocabulary(NameWords.of(SCHEMA), model), model);
    assertThat(model.texts.get()).as("the six name words and the question's one").isEqualTo(7);
  }

  @Test
  void aPreloadEmbedsEveryEnglishWordOnceAndLaterQuestionsCallTheModelOnlyForOtherNames() {
    SynonymModel model = new SynonymModel();
    assertThat(NameWords.preload(model, () -> true)).as("stopped before its first batch").isZero();
    int all = dev.schemarag.core.search.EnglishWords.all().size();
    assertThat(NameWords.preload(model, () -> false)).isEqualTo(all);
    assertThat(NameWords.preload(model, () -> false)).as("nothing left to embed").isZero();
    NameWords.nearest(List.of("vendors", "vocalists"), new NameWords().vocabulary(NameWords.of(SCHEMA), model), model);
    assertThat(model.texts.get() - all).as("only qty, which is no English word").isEqualTo(1);
  }

  @Test
  void findsNothingForAWordFarFromEveryName() {
    SynonymModel model = new SynonymModel();
    assertThat(NameWords.nearest(List.of("weather"), new NameWords().vocabulary(NameWords.of(SCHEMA), model), model)).isEmpty();
  }
}
