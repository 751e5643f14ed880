package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableCopiesTest {

  private static List<TableEvidence> ranking(String... tables) {
    return java.util.Arrays.stream(tables).map(TableEvidence::new).toList();
  }

  @Test
  void tablesOfOneNameBeyondTheFirstTwoMoveBehindEveryOtherCandidate() {
    List<TableEvidence> ranking = ranking("hr_emea.departments", "hr_apac.Departments", "hr_amer.departments", "hr_dach.departments",
        "school.school__departments", "school.school__degree_programs");
    assertThat(TableCopies.fewFirst(ranking).stream().map(TableEvidence::table)).containsExactly(
        "hr_emea.departments", "hr_apac.Departments", "school.school__departments", "school.school__degree_programs",
        "hr_amer.departments", "hr_dach.departments");
  }

  @Test
  void aNameAlreadyTwiceInThePacketAdmitsNoThirdTable() {
    java.util.Map<String, Integer> ofName = TableCopies.namesIn(List.of("hr_emea.departments", "school.courses"));
    assertThat(TableCopies.admit(ofName, "hr_apac.departments")).isTrue();
    assertThat(TableCopies.admit(ofName, "hr_amer.departments")).isFalse();
    assertThat(TableCopies.admit(ofName, "school.teachers")).isTrue();
  }

  @Test
  void aRankingWithAtMostTwoTablesOfEachNameStaysAsItIs() {
    List<TableEvidence> ranking = ranking("sales.orders", "sales_emea.orders", "procurement.purchase_orders", "orders_archive");
    assertThat(TableCopies.fewFirst(ranking)).isSameAs(ranking);
  }

  private static DenseSearch.Hit hit(String table, String column) {
    return new DenseSearch.Hit(table, java.util.Optional.ofNullable(column), 0.5);
  }

  @Test
  void aSearchKeepsTheFirstTwoCopiesOfANameSoThatATableOfAnotherNameFitsItsLimit() {
    List<DenseSearch.Hit> hits = List.of(hit("hr_emea.job_grades", null), hit("hr_apac.job_grades", null), hit("hr_amer.job_grades", null),
        hit("hr_dach.job_grades", null), hit("school.highschooler", null), hit("school.friend", null), hit("school.likes", null));
    List<DenseSearch.Hit> kept = TableCopies.fewOfEachName(hits, 3, DenseSearch.Hit::table, h -> "");
    assertThat(kept.stream().map(DenseSearch.Hit::table)).containsExactly("hr_emea.job_grades", "hr_apac.job_grades", "school.highschooler");
  }

  @Test
  void aColumnIsACopyOnlyOfTheSameColumnInATableOfTheSameName() {
    List<DenseSearch.Hit> hits = List.of(hit("hr_emea.job_grades", "grade"), hit("hr_apac.job_grades", "grade"),
        hit("hr_amer.job_grades", "grade"), hit("hr_amer.job_grades", "title"), hit("school.highschooler", "grade"));
    assertThat(TableCopies.fewOfEachName(hits, 10, DenseSearch.Hit::table, h -> h.subject().orElse("")))
        .containsExactly(hits.get(0), hits.get(1), hits.get(3), hits.get(4));
  }
}
