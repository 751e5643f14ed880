package dev.schemarag.core.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CategoricalValuesTest {

  @Test
  void aColumnWithFewDistinctValuesShowsTheMostCommonFirstThenTheSampledBounds() {
    assertThat(CategoricalValues.pick(4, 400, List.of("open", "pending"), List.of("closed", "escalated"), 10))
        .containsExactly("open", "pending", "closed", "escalated");
  }

  @Test
  void aNegativeDistinctCountIsAShareOfTheRows() {
    // Every row distinct (-1) in a 12-row lookup table: its names are categories, all in the histogram's bounds.
    List<String> names = List.of("Engineering", "Executive", "Finance", "Sales");
    assertThat(CategoricalValues.pick(-1, 12, List.of(), names, 10)).containsExactlyElementsOf(names);
    // Every row distinct in a table of 5,000: names of people or e-mails, not categories.
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), names, 10)).isEmpty();
    // Never counted (reltuples -1): how many distinct values there are is unknown, so none is shown.
    assertThat(CategoricalValues.pick(-0.5, -1, List.of(), names, 10)).isEmpty();
  }

  @Test
  void aManyValuedColumnShowsTheWordsThatSortItsValuesIntoKindsAsPatterns() {
    List<String> products = new ArrayList<>();
    for (int i = 1; i <= 60; i++) {
      products.add(List.of("Laptop", "Router", "Headset").get(i % 3) + " model " + i);
    }
    products.add("Webcam model 61");
    // "model" is in every name (the column's format), "Webcam" in one (a row, not a kind).
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), products, 10)).containsExactly("%Router%", "%Headset%", "%Laptop%");
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), products, 2)).containsExactly("%Router%", "%Headset%");
    List<String> emails = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (int i = 1; i <= 60; i++) {
      emails.add("employee" + i + "@example.com");
      notes.add("Hello team, please look at order " + i + " again when you find the time for it");
    }
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), emails, 10)).isEmpty();
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), notes, 10)).isEmpty();
  }

  @Test
  void theWordsThatBeginValuesComeBeforeMoreFrequentOnes() {
    List<String> companies = new ArrayList<>();
    for (String company : List.of("Acme GmbH", "Wayne GmbH", "Hooli Inc", "Stark Inc", "Tyrell Lda")) {
      for (int i = 1; i <= 8; i++) {
        companies.add(company + " " + i);
      }
    }
    // The legal forms are in more names (GmbH and Inc in 16 of 40) but say less than the brands (8 each).
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), companies, 5)).containsExactly("%Acme%", "%Wayne%", "%Hooli%", "%Stark%", "%Tyrell%");
    assertThat(CategoricalValues.pick(-1, 5000, List.of(), companies, 10)).endsWith("%GmbH%", "%Inc%", "%Lda%");
  }

  @Test
  void moreDistinctValuesThanTheCapShowNoValue() {
    assertThat(CategoricalValues.pick(CategoricalValues.MAX_DISTINCT + 1, 10_000, List.of("a value"), List.of(), 10)).isEmpty();
    assertThat(CategoricalValues.pick(CategoricalValues.MAX_DISTINCT, 10_000, List.of("a value"), List.of(), 10)).containsExactly("a value");
  }

  @Test
  void codesFreeTextAndBlanksAreLeftOutAndTheCountIsCapped() {
    String longText = "x".repeat(CategoricalValues.MAX_LENGTH + 1);
    assertThat(CategoricalValues.pick(8, 100, List.of("A-12", "CC100", " ", longText, "USD", "Networking"), List.of("Networking", "LOT-8"), 10))
        .containsExactly("USD", "Networking", "LOT-8");
    assertThat(CategoricalValues.pick(8, 100, List.of("new", "contacted", "qualified"), List.of(), 2)).containsExactly("new", "contacted");
    assertThat(CategoricalValues.pick(8, 100, List.of("new"), List.of(), 0)).isEmpty();
    assertThat(CategoricalValues.pick(0, 100, List.of("new"), List.of(), 10)).isEmpty();
  }
}
