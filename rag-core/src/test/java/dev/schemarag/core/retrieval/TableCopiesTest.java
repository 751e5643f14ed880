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

  @Test
  void aSearchKeepsTheFirstTwoCopiesOfANameSoThatATableOfAnotherNameFitsItsLimit() {
    List<String> hits = List.of("hr_emea.job_grades", "hr_apac.Job_Grades", "hr_amer.job_grades", "hr_dach.job_grades",
        "school.highschooler", "school.friend", "school.likes");
    assertThat(TableCopies.fewOfEachName(hits, 3, t -> t)).containsExactly("hr_emea.job_grades", "hr_apac.Job_Grades", "school.highschooler");
    assertThat(TableCopies.fewOfEachName(hits, 10, t -> t)).containsExactly("hr_emea.job_grades", "hr_apac.Job_Grades",
        "school.highschooler", "school.friend", "school.likes");
  }
}
