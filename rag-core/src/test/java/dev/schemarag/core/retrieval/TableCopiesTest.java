package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableCopiesTest {

  private static List<TableEvidence> ranking(String... tables) {
    return Arrays.stream(tables).map(TableEvidence::new).toList();
  }

  /** A table of these columns. */
  private static Table table(String name, String... columns) {
    return new Table(name, Optional.empty(), Arrays.stream(columns)
        .map(c -> new Column(c, "text", true, Optional.empty(), Optional.empty(), false, Optional.empty())).toList(), Optional.empty());
  }

  private static SchemaModel model(Table... tables) {
    return new SchemaModel("db", List.of(tables), List.of());
  }

  private static final List<String> DEPARTMENT = List.of("department_id", "name", "manager_id", "cost_centre");

  private static Table department(String name, String... more) {
    List<String> columns = new java.util.ArrayList<>(DEPARTMENT);
    columns.addAll(List.of(more));
    return table(name, columns.toArray(String[]::new));
  }

  private static final TableCopies DEPARTMENTS = TableCopies.of(model(
      department("hr_emea.departments"), department("hr_apac.Departments", "region"), department("hr_amer.departments"),
      department("hr_dach.departments", "works_council"), table("school.school__departments", "dept_id", "title"),
      table("school.school__degree_programs", "program_id"), table("school.courses", "course_id"), table("school.teachers", "teacher_id")));

  @Test
  void tablesOfOneNameBeyondTheFirstTwoMoveBehindEveryOtherCandidate() {
    List<TableEvidence> ranking = ranking("hr_emea.departments", "hr_apac.Departments", "hr_amer.departments", "hr_dach.departments",
        "school.school__departments", "school.school__degree_programs");
    assertThat(DEPARTMENTS.fewFirst(ranking).stream().map(TableEvidence::table)).containsExactly(
        "hr_emea.departments", "hr_apac.Departments", "school.school__departments", "school.school__degree_programs",
        "hr_amer.departments", "hr_dach.departments");
  }

  @Test
  void tablesOfOneNameThatShareFewColumnsAreNotCopies() {
    // Three cities of three different schemas: a census's, a map's, a rental shop's.
    TableCopies cities = TableCopies.of(model(table("world.city", "id", "name", "country_code", "district", "population"),
        table("geo.city", "city_name", "population", "country_name", "state_name"),
        table("rental.city", "city_id", "city", "country_id", "last_update")));
    assertThat(cities.any()).isFalse();
    List<TableEvidence> ranking = ranking("geo.city", "rental.city", "world.city");
    assertThat(cities.fewFirst(ranking)).isSameAs(ranking);
  }

  @Test
  void aCopyThatGrewApartFromTheFirstIsStillOneThroughAnotherCopy() {
    // France's meetings share one column of six with the first table, but half of Korea's, which is a copy of the first.
    TableCopies meetings = TableCopies.of(model(
        table("crm.meetings", "meeting_id", "meeting_at", "code", "customer_id", "created_at", "updated_at"),
        table("crm_france.meetings", "meeting_id", "lead_id", "priority", "notes", "valid_to", "campaign_id"),
        table("crm_korea.meetings", "meeting_id", "meeting_at", "lead_id", "priority", "created_at", "updated_at"),
        table("crm_uk.meetings", "meeting_id", "meeting_at", "code", "customer_id", "status"),
        table("crm.campaigns", "campaign_id")));
    List<TableEvidence> ranking = ranking("crm_france.meetings", "crm.meetings", "crm_korea.meetings", "crm_uk.meetings", "crm.campaigns");
    assertThat(meetings.fewFirst(ranking).stream().map(TableEvidence::table)).containsExactly(
        "crm_france.meetings", "crm.meetings", "crm.campaigns", "crm_korea.meetings", "crm_uk.meetings");
  }

  @Test
  void aNameAlreadyTwiceInThePacketAdmitsNoThirdTable() {
    Map<String, Integer> ofGroup = DEPARTMENTS.countIn(List.of("hr_emea.departments", "school.courses"));
    assertThat(DEPARTMENTS.admit(ofGroup, "hr_apac.Departments")).isTrue();
    assertThat(DEPARTMENTS.admit(ofGroup, "hr_amer.departments")).isFalse();
    assertThat(DEPARTMENTS.admit(ofGroup, "school.teachers")).isTrue();
  }

  @Test
  void aRankingWithAtMostTwoTablesOfEachNameStaysAsItIs() {
    TableCopies orders = TableCopies.of(model(table("sales.orders", "order_id"), table("sales_emea.orders", "order_id"),
        table("procurement.purchase_orders", "order_id"), table("orders_archive", "order_id")));
    List<TableEvidence> ranking = ranking("sales.orders", "sales_emea.orders", "procurement.purchase_orders", "orders_archive");
    assertThat(orders.any()).isFalse();
    assertThat(orders.fewFirst(ranking)).isSameAs(ranking);
  }

  @Test
  void aSearchKeepsTheFirstTwoCopiesOfANameSoThatATableOfAnotherNameFitsItsLimit() {
    TableCopies grades = TableCopies.of(model(table("hr_emea.job_grades", "grade", "min_salary"),
        table("hr_apac.Job_Grades", "grade", "min_salary"), table("hr_amer.job_grades", "grade", "min_salary", "max_salary"),
        table("hr_dach.job_grades", "grade"), table("school.highschooler", "id"), table("school.friend", "id"), table("school.likes", "id")));
    List<String> hits = List.of("hr_emea.job_grades", "hr_apac.Job_Grades", "hr_amer.job_grades", "hr_dach.job_grades",
        "school.highschooler", "school.friend", "school.likes");
    assertThat(grades.fewOfEach(hits, 3, t -> t)).containsExactly("hr_emea.job_grades", "hr_apac.Job_Grades", "school.highschooler");
    assertThat(grades.fewOfEach(hits, 10, t -> t)).containsExactly("hr_emea.job_grades", "hr_apac.Job_Grades",
        "school.highschooler", "school.friend", "school.likes");
  }

  @Test
  void aChangedTableIsGroupedAgainAsAFullBuildWouldGroupIt() {
    SchemaModel two = model(department("hr_emea.departments"), department("hr_apac.departments"), table("school.courses", "course_id"));
    TableCopies before = TableCopies.of(two);
    assertThat(before.any()).isFalse();

    SchemaModel three = two.withTables(Map.of("hr_amer.departments", Optional.of(department("hr_amer.departments"))), List.of());
    TableCopies added = before.with(three, List.of("hr_amer.departments"));
    assertThat(added.any()).isTrue();
    assertThat(added.fewFirst(ranking("hr_emea.departments", "hr_apac.departments", "hr_amer.departments", "school.courses"))
        .stream().map(TableEvidence::table)).containsExactly("hr_emea.departments", "hr_apac.departments", "school.courses",
        "hr_amer.departments");

    // Its columns change until it shares too few with the others: it is no copy any more.
    SchemaModel apart = three.withTables(Map.of("hr_amer.departments",
        Optional.of(table("hr_amer.departments", "dept_code", "label", "budget"))), List.of());
    assertThat(added.with(apart, List.of("hr_amer.departments")).any()).isFalse();

    SchemaModel dropped = three.withTables(Map.of("hr_apac.departments", Optional.empty()), List.of());
    assertThat(added.with(dropped, List.of("hr_apac.departments")).any()).isFalse();
  }
}
