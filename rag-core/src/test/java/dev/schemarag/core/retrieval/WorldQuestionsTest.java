package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WorldQuestionsTest {

  @Test
  void theBundledQuestionsAreManyDistinctAndNoneAsksAboutAnOrganisationsOwnRecords() {
    List<String> texts = WorldQuestions.bundled();
    assertThat(texts).hasSizeGreaterThanOrEqualTo(500);
    assertThat(new HashSet<>(texts.stream().map(t -> t.toLowerCase(Locale.ROOT)).toList())).hasSameSizeAs(texts);
    assertThat(texts).noneMatch(t -> t.startsWith("#") || t.isBlank());
    // A question about "our customers" is some database's question: it must never be background.
    Pattern ours = Pattern.compile("\\b(our|we|ours)\\b", Pattern.CASE_INSENSITIVE);
    assertThat(texts).noneMatch(t -> ours.matcher(t).find());
  }

  @Test
  void closenessIsTheMeanCosineOfTheThreeNearestQuestions() {
    WorldQuestions world = new WorldQuestions(List.of("weather", "share price", "poem", "recipe"),
        List.of(unit(1, 0, 0), unit(0.8f, 0.6f, 0), unit(0, 1, 0), unit(0, 0, 1)));
    WorldQuestions.Closeness c = world.closeness(unit(1, 0, 0));
    assertThat(c.nearest()).isEqualTo("weather");
    assertThat(c.score()).isCloseTo((1 + 0.8 + 0) / 3, within(1e-6));
    WorldQuestions.Closeness d = world.closeness(unit(0, 0.6f, 0.8f));
    assertThat(d.nearest()).isEqualTo("recipe");
    assertThat(d.score()).isCloseTo((0.8 + 0.6 + 0.36) / 3, within(1e-6));
  }

  @Test
  void closenessIsTheCosineOverEveryDimension() {
    // Six dimensions: one block of four summed side by side, and two more.
    float[] a = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    float[] b = {0.6f, 0.5f, 0.4f, 0.3f, 0.2f, 0.1f};
    float[] c = {1, 1, 1, 1, 1, 1};
    WorldQuestions world = new WorldQuestions(List.of("a", "b", "c"), List.of(a, b, c));
    float[] q = {0, 0, 0, 0, 1, 1};
    WorldQuestions.Closeness close = world.closeness(q);
    assertThat(close.nearest()).isEqualTo("c");
    assertThat(close.score()).isCloseTo((1.1 + 0.3 + 2) / 3, within(1e-6));
  }

  @Test
  void aQuestionVectorOfAnotherModelIsNamedAsSuch() {
    WorldQuestions world = new WorldQuestions(List.of("a", "b", "c"), List.of(unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1)));
    assertThatThrownBy(() -> world.closeness(new float[] {1, 0})).hasMessageContaining("2 dimensions").hasMessageContaining("3");
    assertThatThrownBy(() -> new WorldQuestions(List.of("a", "b"), List.of(unit(1, 0, 0), unit(0, 1, 0))))
        .hasMessageContaining("3 or more texts");
    assertThatThrownBy(() -> new WorldQuestions(List.of("a", "b", "c"), List.of(unit(1, 0, 0), unit(0, 1), unit(0, 0, 1))))
        .hasMessageContaining("world question 1 has a vector of 2 dimensions");
  }

  private static float[] unit(float... v) {
    return v;
  }
}
