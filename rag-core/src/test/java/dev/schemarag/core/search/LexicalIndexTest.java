package dev.schemarag.core.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LexicalIndexTest {

  private static List<LexicalIndex.Doc> docs(String table, int version) {
    List<LexicalIndex.Doc> out = new ArrayList<>();
    for (int c = 0; c < 10; c++) {
      out.add(new LexicalIndex.Doc(table + "." + c, table, "column", Optional.of("c" + c),
          table + " column " + c + " holds amounts of stock orders customers invoices, revision " + version));
    }
    return out;
  }

  private static LexicalIndex updated(long graceMs, int updates, List<Long> bytes) throws Exception {
    List<LexicalIndex.Doc> all = new ArrayList<>();
    for (int t = 0; t < 20; t++) {
      all.addAll(docs("t" + t, 0));
    }
    LexicalIndex index = LexicalIndex.of(all, 1.5, 0.75, graceMs);
    bytes.add(index.directoryBytes());
    for (int i = 1; i <= updates; i++) {
      String table = "t" + (i % 20);
      index = index.withTables(Map.of(table, docs(table, i)));
      bytes.add(index.directoryBytes());
    }
    return index;
  }

  @Test
  void replacedVersionsAreClosedSoTheirSegmentsAreFreed() throws Exception {
    List<Long> kept = new ArrayList<>();
    updated(60_000, 120, kept);
    List<Long> freed = new ArrayList<>();
    LexicalIndex last = updated(0, 120, freed);

    // Every version held open keeps every segment it saw; closed ones let merges free theirs.
    assertThat(kept.get(kept.size() - 1)).isGreaterThan(3 * kept.get(0));
    assertThat(freed.get(freed.size() - 1)).isLessThan(3 * freed.get(0));
    assertThat(last.search("revision 120 stock", "column", 5)).isNotEmpty();
  }

  @Test
  void aSmallCountInTheQuestionMatchesNoNameThatCarriesItsDigitsButAYearStillMatches() {
    LexicalIndex index = LexicalIndex.of(List.of(
        new LexicalIndex.Doc("unit4", "hr_unit4.job_grades", "overview", Optional.empty(), "hr_unit4 job_grades"),
        new LexicalIndex.Doc("pupils", "school.pupils", "overview", Optional.empty(), "pupils students grades"),
        new LexicalIndex.Doc("periods", "finance.periods", "overview", Optional.empty(), "fiscal periods values: 2023, 2024")), 1.5, 0.75, 60_000);
    assertThat(index.search("at least 4 students", "overview", 5)).extracting(LexicalIndex.Hit::table).containsExactly("school.pupils");
    assertThat(index.search("4", "overview", 5)).isEmpty();
    assertThat(index.search("revenue in 2024", "overview", 5)).extracting(LexicalIndex.Hit::table).containsExactly("finance.periods");
  }

  @Test
  void theWordsThatFrameAQuestionMatchNoDescriptionThatHappensToSayThem() {
    LexicalIndex index = LexicalIndex.of(List.of(
        new LexicalIndex.Doc("standings", "racing.driver_standings", "overview", Optional.empty(),
            "driver_standings points: how many points the driver acquired"),
        new LexicalIndex.Doc("languages", "world.country_language", "overview", Optional.empty(), "country_language language percentage"),
        new LexicalIndex.Doc("pets", "pets.has_pet", "overview", Optional.empty(), "has_pet student pet")), 1.5, 0.75, 60_000);
    assertThat(index.search("How many languages does each country have?", "overview", 5)).extracting(LexicalIndex.Hit::table)
        .containsExactly("world.country_language");
    assertThat(index.search("What do you know, and who could tell me?", "overview", 5)).isEmpty();
    // "has" names tables, so it is still searched for.
    assertThat(index.search("students who has a pet", "overview", 5)).extracting(LexicalIndex.Hit::table).containsExactly("pets.has_pet");
  }

  @Test
  void aPhraseOnlyOneTableSaysIsNotHeldElsewhereUntilAnotherSaysItToo() {
    LexicalIndex index = LexicalIndex.of(List.of(
        new LexicalIndex.Doc("w.city", "w", "column", Optional.of("city"), "warehouses city: values: Porto, Lyon"),
        new LexicalIndex.Doc("w.name", "w", "column", Optional.of("name"), "warehouses name: values: Porto South, Berlin Central"),
        new LexicalIndex.Doc("c.name", "c", "column", Optional.of("name"), "customers name"),
        new LexicalIndex.Doc("c", "c", "overview", Optional.empty(), "Customers in every city, south of the river")), 1.5, 0.75, 60_000);
    assertThat(index.heldElsewhere(List.of("porto"), "w")).isFalse();
    assertThat(index.heldElsewhere(List.of("porto"), "c")).isTrue();
    assertThat(index.heldElsewhere(List.of("citi"), "w")).isTrue();
    // Both words are said elsewhere, the phrase is not.
    assertThat(index.heldElsewhere(List.of("porto", "south"), "w")).isFalse();
    LexicalIndex next = index.withTables(Map.of("c", List.of(
        new LexicalIndex.Doc("c.city", "c", "column", Optional.of("city"), "customers city: values: Porto"),
        new LexicalIndex.Doc("c.site", "c", "column", Optional.of("site"), "customers site: the Porto of the South"))));
    assertThat(next.heldElsewhere(List.of("porto"), "w")).isTrue();
    // Stop words between the words are allowed ("Porto of the South").
    assertThat(next.heldElsewhere(List.of("porto", "south"), "w")).isTrue();
  }

  @Test
  void aVersionReplacedLongerAgoThanTheGraceNoLongerAnswers() throws Exception {
    List<LexicalIndex.Doc> all = new ArrayList<>(docs("a", 0));
    all.addAll(docs("b", 0));
    LexicalIndex first = LexicalIndex.of(all, 1.5, 0.75, 0);
    LexicalIndex second = first.withTables(Map.of("a", docs("a", 1)));
    assertThatThrownBy(() -> first.search("stock", "column", 5)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was replaced");
    assertThat(second.search("revision 1", "column", 20)).extracting(LexicalIndex.Hit::table).contains("a");
  }

  @Test
  void afterAChangeItScoresAsAnIndexBuiltFromTheLiveDocumentsOnly() {
    // "stock" is in every document, far more than the deleted ones; "warranty" in one table's documents only,
    // no more than its deleted ones once it changed: both ways of counting deleted documents out are run.
    Map<String, List<LexicalIndex.Doc>> now = new java.util.LinkedHashMap<>();
    for (int t = 0; t < 40; t++) {
      now.put("t" + t, revision("t" + t, t, "draft"));
    }
    LexicalIndex index = LexicalIndex.of(now.values().stream().flatMap(List::stream).toList(), 1.5, 0.75, 60_000);
    for (int t = 0; t < 37; t++) {
      String table = "t" + t;
      index = index.withTables(Map.of(table, revision(table, t, "final")));
      now.put(table, revision(table, t, "final"));
      if (t == 0 || t == 36) {
        LexicalIndex fresh = LexicalIndex.of(now.values().stream().flatMap(List::stream).toList(), 1.5, 0.75, 60_000);
        for (String question : List.of("stock orders", "draft stock", "final invoices", "warranty draft", "warranty final")) {
          assertThat(scores(index, question)).as(question + " after " + (t + 1) + " changes").isEqualTo(scores(fresh, question));
        }
      }
    }
  }

  private static List<LexicalIndex.Doc> revision(String table, int t, String revision) {
    List<LexicalIndex.Doc> out = new ArrayList<>();
    for (int c = 0; c < 10; c++) {
      out.add(new LexicalIndex.Doc(table + "." + c, table, "column", Optional.of("c" + c),
          "stock orders invoices " + (t == 0 ? "warranty claims " : "") + "revision " + revision + (c % 3 == 0 ? " stock" : "")));
    }
    return out;
  }

  private static Map<String, Double> scores(LexicalIndex index, String question) {
    Map<String, Double> out = new java.util.HashMap<>();
    index.search(question, "column", 1000).forEach(h -> out.put(h.chunkId(), h.score()));
    return out;
  }
}
