package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.catalog.DatabaseKey;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Who may ask what, end to end on the real PostgreSQL and broker: principals mapped to roles with
 * table grants, a column grant and a row-level security policy. A principal never sees a table,
 * column or row outside its grants, whether through retrieval, grounding, execution, error
 * messages or the exam log.
 */
@Tag("integration")
class PrincipalAccessIT {

  private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  private static final String SALES = "pa_" + RUN + "_sales";
  private static final String HR = "pa_" + RUN + "_hr";
  private static final String SALES_ROLE = "pa_" + RUN + "_analyst";
  private static final String HR_ROLE = "pa_" + RUN + "_hr_manager";
  private static final String READER = "pa_" + RUN + "_reader";
  private static final String DB = "pa-" + RUN;

  private static ConnectionSource admin;
  private static ScriptedLlmServer llm;
  private static QueryService service;
  private static QuestionBus bus;
  private static TopicCatalog topics;

  @BeforeAll
  static void start() throws Exception {
    String url = TestInfra.postgresUrl();
    admin = ConnectionSource.of(url, null, null);
    sql("CREATE SCHEMA " + SALES, "CREATE SCHEMA " + HR,
        "CREATE TABLE " + HR + ".employees (employee_id int PRIMARY KEY, full_name text NOT NULL, salary numeric NOT NULL)",
        "COMMENT ON TABLE " + HR + ".employees IS 'Everyone employed by the company'",
        "CREATE TABLE " + HR + ".salaries (employee_id int REFERENCES " + HR + ".employees, amount numeric, paid_on date)",
        "COMMENT ON TABLE " + HR + ".salaries IS 'Salary payments to employees, each payroll run'",
        "CREATE TABLE " + SALES + ".customers (customer_id int PRIMARY KEY, company_name text NOT NULL, region text NOT NULL)",
        "COMMENT ON TABLE " + SALES + ".customers IS 'Companies that buy from us'",
        "CREATE TABLE " + SALES + ".orders (order_id int PRIMARY KEY, customer_id int REFERENCES " + SALES + ".customers,"
            + " rep_id int REFERENCES " + HR + ".employees, total_amount numeric)",
        "COMMENT ON TABLE " + SALES + ".orders IS 'Customer orders and their value'",
        "INSERT INTO " + HR + ".employees VALUES (1, 'Ann Lee', 5100), (2, 'Bo Chan', 6200)",
        "INSERT INTO " + HR + ".salaries VALUES (1, 5100, '2026-10-31'), (2, 6200, '2026-10-31')",
        "INSERT INTO " + SALES + ".customers VALUES (1, 'Acme', 'EU'), (2, 'Globex', 'EU'), (3, 'Initech', 'NA')",
        "INSERT INTO " + SALES + ".orders VALUES (1, 1, 1, 100), (2, 3, 2, 250)",
        "CREATE ROLE " + SALES_ROLE + " NOLOGIN", "CREATE ROLE " + HR_ROLE + " NOLOGIN",
        "GRANT USAGE ON SCHEMA " + SALES + " TO " + SALES_ROLE,
        "GRANT SELECT ON ALL TABLES IN SCHEMA " + SALES + " TO " + SALES_ROLE,
        // The analyst may name the sales rep, not see their pay.
        "GRANT USAGE ON SCHEMA " + HR + " TO " + SALES_ROLE,
        "GRANT SELECT (employee_id, full_name) ON " + HR + ".employees TO " + SALES_ROLE,
        "GRANT USAGE ON SCHEMA " + HR + " TO " + HR_ROLE, "GRANT SELECT ON ALL TABLES IN SCHEMA " + HR + " TO " + HR_ROLE,
        "ALTER TABLE " + SALES + ".customers ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY all_rows ON " + SALES + ".customers FOR SELECT USING (true)",
        "CREATE POLICY eu_only ON " + SALES + ".customers AS RESTRICTIVE FOR SELECT TO " + SALES_ROLE + " USING (region = 'EU')");
    llm = new ScriptedLlmServer(prompt -> {
      if (prompt.contains("customers are there")) {
        return "```sql\nSELECT count(*) AS n FROM " + SALES + ".customers\n```";
      }
      if (prompt.contains("payroll total")) {
        return "```sql\nSELECT sum(amount) FROM " + HR + ".salaries\n```";
      }
      if (prompt.contains("earn most")) {
        return "```sql\nSELECT e.full_name, e.salry FROM " + HR + ".employees e\n```";
      }
      return "no SQL for that";
    });
    String bootstrap = TestInfra.kafkaBootstrap();
    topics = new TopicCatalog(new TopicSettings("pa" + RUN, 1, (short) 1), new SerdeFactory(SerdeSettings.DEFAULT));
    TopicAdmin.createMissing(bootstrap, topics.all());
    SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), Map.of(
        "database.id", DB, "catalog.schemas", SALES + "," + HR, "reader.role", READER, "reader.password", "pa",
        "llm.base.url", llm.openAiUrl(), "llm.model", "stub", "query.group.id", "pa" + RUN + "-query",
        "access.principals", "ann=" + SALES_ROLE + ",root=" + READER, "access.groups", "payroll=" + HR_ROLE,
        // Only the captured DDL may refresh a role's privileges in this test, not the clock.
        "access.refresh.ms", "3600000"));
    service = QueryServices.create(config, admin, url, topics, bootstrap);
    service.start(1);
    bus = new QuestionBus(bootstrap, topics);
  }

  @AfterAll
  static void stop() throws SQLException {
    service.close();
    llm.close();
    sql("DROP SCHEMA " + SALES + " CASCADE", "DROP SCHEMA " + HR + " CASCADE");
    for (String r : List.of(SALES_ROLE, HR_ROLE, READER)) {
      sql("DROP OWNED BY " + r, "DROP ROLE " + r);
    }
  }

  private static void sql(String... statements) throws SQLException {
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  private static QuestionRequested question(String principal, List<String> groups, String text, boolean groundingOnly) {
    return QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(DB).setQuestion(text)
        .setOptions(QuestionOptions.newBuilder().setGroundingOnly(groundingOnly).build())
        .setRequestedBy(principal).setRequestedByGroups(groups).setRequestedAtMs(System.currentTimeMillis()).build();
  }

  private static QuestionBus.Outcome ask(String principal, String text) throws Exception {
    return bus.ask(question(principal, List.of(), text, false));
  }

  /** Every string a principal can read of an event (the question it asked aside). */
  private static String readable(Object event) {
    String all = event.toString();
    if (event instanceof QueryAnswered a) {
      return all.replace(a.getQuestion(), "");
    }
    if (event instanceof QueryFailed f) {
      return all.replace(f.getQuestion(), "");
    }
    return all.replace(((ExamRecord) event).getQuestion(), "");
  }

  @Test
  void rowLevelSecurityAndGrantsDecideWhatComesBack() throws Exception {
    QueryAnswered ann = ask("ann", "How many customers are there?").answer();
    assertThat(ann.getRowsPreview()).as("the analyst's role sees the EU customers only").containsExactly(List.of("2"));
    assertThat(ann.getRunAsRole()).isEqualTo(SALES_ROLE);
    assertThat(ann.getRequestedBy()).isEqualTo("ann");
    assertThat(ann.getContextPacket()).contains(SALES + ".customers").contains(HR + ".employees").contains("full_name");
    assertThat(readable(ann)).doesNotContain("salar");

    QueryAnswered root = ask("root", "How many customers are there?").answer();
    assertThat(root.getRowsPreview()).containsExactly(List.of("3"));
    assertThat(root.getRunAsRole()).isEqualTo(READER);

    // What the model was shown for the analyst's question: no hidden table or column.
    assertThat(llm.requests()).filteredOn(r -> r.contains("customers are there")).first().asString()
        .contains(SALES + ".customers").doesNotContain("salar");
  }

  @Test
  void sqlOutsideThePrincipalsViewIsBlockedAndNoMessageNamesAHiddenColumn() throws Exception {
    QueryFailed payroll = ask("ann", "What is the payroll total for our employees?").failure();
    assertThat(payroll.getErrorClass()).isEqualTo("validation_block");
    assertThat(payroll.getStage()).isEqualTo("guard");
    assertThat(payroll.getMessage()).contains(HR + ".salaries").contains("not in the context packet");
    assertThat(payroll.getContextPacket()).doesNotContain("salar");

    // A column the role may not read: the model's typo is repaired against the readable columns only.
    String id = UUID.randomUUID().toString();
    QueryFailed typo = bus.ask(QuestionRequested.newBuilder(question("ann", List.of(), "Which employees earn most?", false))
        .setQueryId(id).build()).failure();
    assertThat(typo.getRunAsRole()).isEqualTo(SALES_ROLE);
    assertThat(readable(typo)).doesNotContain("salary").doesNotContain("salaries");
    List<ExamRecord> exam = bus.exam(id, typo.getAttempts());
    assertThat(exam).isNotEmpty().allSatisfy(e -> {
      assertThat(e.getRunAsRole()).isEqualTo(SALES_ROLE);
      assertThat(readable(e)).doesNotContain("salary").doesNotContain("salaries");
    });
    assertThat(llm.requests()).filteredOn(r -> r.contains("earn most")).isNotEmpty()
        .allSatisfy(r -> assertThat(r).doesNotContain("salary").doesNotContain("salaries"));
  }

  @Test
  void aGroupMapsItsMembersToTheirRoleAndAnUnknownPrincipalIsRefused() throws Exception {
    QueryAnswered hr = bus.ask(question("paula", List.of("staff", "payroll"), "Salary payments of each employee", true)).answer();
    assertThat(hr.getRunAsRole()).isEqualTo(HR_ROLE);
    assertThat(hr.getTables()).contains(HR + ".salaries").noneMatch(t -> t.startsWith(SALES + "."));

    String id = UUID.randomUUID().toString();
    QueryFailed unknown = bus.ask(QuestionRequested.newBuilder(question("mallory", List.of("guests"), "How many customers are there?", false))
        .setQueryId(id).build()).failure();
    assertThat(unknown.getErrorClass()).isEqualTo("unknown_principal");
    assertThat(unknown.getStage()).isEqualTo("access");
    assertThat(unknown.getMessage()).contains("unknown principal 'mallory'");
    assertThat(unknown.getContextPacket()).isNull();
    assertThat(bus.exam(id, 1)).singleElement().satisfies(e -> {
      assertThat(e.getErrorClass()).isEqualTo("unknown_principal");
      assertThat(e.getRequestedBy()).isEqualTo("mallory");
      assertThat(e.getPacketTables()).isEmpty();
    });

    QueryFailed anonymous = bus.ask(question(null, List.of(), "How many customers are there?", false)).failure();
    assertThat(anonymous.getErrorClass()).isEqualTo("unknown_principal");
    assertThat(anonymous.getMessage()).contains("access.default.principal is not set");
  }

  @Test
  void aRevokeReachesRetrievalThroughTheCapturedDdlEvent() throws Exception {
    String text = "Total value of orders";
    assertThat(bus.ask(question("ann", List.of(), text, true)).answer().getTables()).contains(SALES + ".orders");

    sql("REVOKE SELECT ON " + SALES + ".orders FROM " + SALES_ROLE);
    bus.publish(topics.ddl(), new DatabaseKey(DB), ddlEvent("REVOKE"));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(bus.ask(question("ann", List.of(), text, true)).answer()
        .getContextPacket()).doesNotContain(SALES + ".orders"));

    sql("GRANT SELECT ON " + SALES + ".orders TO " + SALES_ROLE);
    bus.publish(topics.ddl(), new DatabaseKey(DB), ddlEvent("GRANT"));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(bus.ask(question("ann", List.of(), text, true)).answer()
        .getTables()).contains(SALES + ".orders"));
  }

  @Test
  void anUndecodableDdlEventGoesToItsDlqAndQuestionsAreStillAnswered() throws Exception {
    bus.publishRaw(topics.ddl().name(), "k".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "not a ddl event".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    var dead = bus.records(topics.dlq(topics.ddl()).name(), l -> !l.isEmpty());
    assertThat(dead).isNotEmpty();
    assertThat(new String(dead.get(0).headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(),
        java.nio.charset.StandardCharsets.UTF_8)).contains("undecodable DDL event");
    assertThat(bus.ask(question("ann", List.of(), "How many customers are there?", false)).answer().getRowsPreview())
        .containsExactly(List.of("2"));
  }

  /** The DDL event the ingest service publishes for a GRANT or REVOKE (object identity is not given for these). */
  private static DdlEvent ddlEvent(String tag) {
    return DdlEvent.newBuilder().setDatabaseId(DB).setEventId(System.nanoTime()).setPhase("ddl_command_end").setCommandTag(tag)
        .setObjectType("TABLE").setStatement(tag + " on " + SALES + ".orders").setExecutedAtMs(System.currentTimeMillis()).build();
  }
}
