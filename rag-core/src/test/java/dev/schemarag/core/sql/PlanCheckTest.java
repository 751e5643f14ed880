package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlanCheckTest {

  private static final List<String> PACKET = List.of("orders", "sales.customers");

  /** The shape of PostgreSQL 15's EXPLAIN (VERBOSE, FORMAT JSON): a sub-plan reading hr.salaries under a Limit. */
  private static final String WITH_SUBPLAN = """
      [{"Plan": {"Node Type": "Limit", "Startup Cost": 0.00, "Total Cost": 1.50, "Plan Rows": 10, "Plan Width": 36,
        "Output": ["o.total"],
        "Plans": [
          {"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": "orders", "Schema": "public", "Alias": "o",
           "Plans": [
             {"Node Type": "Aggregate", "Parent Relationship": "SubPlan", "Subplan Name": "SubPlan 1",
              "Plans": [{"Node Type": "Index Scan", "Relation Name": "salaries", "Schema": "hr", "Index Name": "salaries_pkey"}]}
           ]},
          {"Node Type": "Result", "Parent Relationship": "InitPlan", "Subplan Name": "InitPlan 1 (returns $0)",
           "Plans": [{"Node Type": "Seq Scan", "Relation Name": "customers", "Schema": "sales"}]}
        ]}}]""";

  @Test
  void everyRelationOfThePlanIsFoundInSubPlansAndInitPlans() {
    PlanCheck p = PlanCheck.parse(WITH_SUBPLAN);
    assertThat(p.relations()).containsExactlyInAnyOrder("public.orders", "hr.salaries", "sales.customers");
    assertThat(p.summary()).isEqualTo("Limit  (cost=0.00..1.50 rows=10 width=36)");
    assertThat(p.refusal(PACKET)).get().asString().contains("hr.salaries").contains("not in the context packet");
    assertThat(p.refusal(List.of("orders", "sales.customers", "hr.salaries"))).isEmpty();
  }

  @Test
  void catalogRelationsAndForeignFunctionScansAreRefused() {
    String catalog = """
        [{"Plan": {"Node Type": "Seq Scan", "Relation Name": "pg_authid", "Schema": "pg_catalog"}}]""";
    assertThat(PlanCheck.parse(catalog).refusal(PACKET)).get().asString().contains("catalog table");
    String functionScan = """
        [{"Plan": {"Node Type": "Function Scan", "Function Name": "pg_stat_get_activity", "Schema": "pg_catalog"}}]""";
    assertThat(PlanCheck.parse(functionScan).functionScans()).containsExactly("pg_catalog.pg_stat_get_activity");
    assertThat(PlanCheck.parse(functionScan).refusal(PACKET)).get().asString().contains("pg_stat_get_activity");
    String series = """
        [{"Plan": {"Node Type": "Function Scan", "Function Name": "generate_series", "Schema": "pg_catalog"}}]""";
    assertThat(PlanCheck.parse(series).refusal(PACKET)).isEmpty();
  }

  @Test
  void functionCallsAreReadFromTheDeparsedExpressionsAsPostgresPrintsThem() {
    assertThat(PlanCheck.calls("(COALESCE((sum(x.x)), '0'::bigint))::numeric(10,2)")).containsExactly("sum");
    assertThat(PlanCheck.calls("(a)::character varying(3)")).isEmpty();
    assertThat(PlanCheck.calls("((a)::bit varying(3) IS NULL)")).isEmpty();
    assertThat(PlanCheck.calls("TRIM(BOTH 'x'::text FROM a)")).isEmpty();
    assertThat(PlanCheck.calls("EXTRACT(year FROM now())")).containsExactly("now");
    assertThat(PlanCheck.calls("string_agg(a, 'lower(x)'::text ORDER BY n)")).containsExactly("string_agg");
    assertThat(PlanCheck.calls("row_number() OVER (?)")).containsExactly("row_number");
    assertThat(PlanCheck.calls("(x.\"it's\" AND pg_sleep('1'::double precision))")).containsExactly("pg_sleep");
    assertThat(PlanCheck.calls("((a)::boolean AND pg_catalog.pg_try_advisory_lock('1'::bigint))"))
        .containsExactly("pg_catalog.pg_try_advisory_lock");
    assertThat(PlanCheck.calls("\"char\"(a)")).containsExactly("\"char\"");
  }

  @Test
  void aCallOutsideTheAllowlistAnywhereInThePlanIsRefused() {
    String sleepy = """
        [{"Plan": {"Node Type": "Result", "Output": ["pg_sleep('5'::double precision)"],
          "Plans": [{"Node Type": "Seq Scan", "Relation Name": "orders", "Schema": "public",
                     "Filter": "(total > (lower(note))::numeric)"}]}}]""";
    PlanCheck p = PlanCheck.parse(sleepy);
    assertThat(p.calls()).containsExactlyInAnyOrder("pg_sleep", "lower");
    assertThat(p.refusal(PACKET)).get().asString().contains("the plan calls pg_sleep");
  }

  @Test
  void aPlanThatWritesOrLocksIsRefused() {
    String modify = """
        [{"Plan": {"Node Type": "ModifyTable", "Operation": "Delete", "Relation Name": "orders", "Schema": "public"}}]""";
    assertThat(PlanCheck.parse(modify).refusal(PACKET)).get().asString().contains("ModifyTable");
  }

  @Test
  void somethingThatIsNoPlanIsAClearError() {
    assertThatThrownBy(() -> PlanCheck.parse("QUERY PLAN")).hasMessageContaining("not an EXPLAIN (FORMAT JSON) plan");
    assertThatThrownBy(() -> PlanCheck.parse("[{}]")).hasMessageContaining("no \"Plan\" object");
  }
}
