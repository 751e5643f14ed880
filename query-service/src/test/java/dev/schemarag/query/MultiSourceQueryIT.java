package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One query service for two source databases (two databases of one cluster, each with a table of
 * the same name but other rows): a question's database id picks the index and the connection its
 * SQL runs on; a database that is no source fails as unknown_database.
 */
@Tag("integration")
class MultiSourceQueryIT {

  private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  private static final String ERP = "erp_" + RUN;
  private static final String CRM = "crm_" + RUN;
  private static final String HR = "hr_" + RUN;
  private static String url;
  private static final String READER = "schemarag_reader_ms" + RUN;
  private static ConnectionSource store;
  private static ScriptedLlmServer llm;
  private static QueryService service;
  private static QuestionBus bus;

  @BeforeAll
  static void start() throws Exception {
    url = TestInfra.postgresUrl();
    store = ConnectionSource.of(url, null, null);
    sql(store, "CREATE DATABASE " + ERP, "CREATE DATABASE " + CRM, "CREATE DATABASE " + HR);
    sql(ConnectionSource.of(inDatabase(url, HR), null, null),
        "CREATE TABLE public.contacts (id int PRIMARY KEY, name text)",
        "COMMENT ON TABLE public.contacts IS 'People we deal with'",
        "INSERT INTO public.contacts VALUES (1, 'a')");
    sql(ConnectionSource.of(inDatabase(url, ERP), null, null),
        "CREATE TABLE public.contacts (id int PRIMARY KEY, name text)",
        "COMMENT ON TABLE public.contacts IS 'People we deal with'",
        "INSERT INTO public.contacts VALUES (1, 'a'), (2, 'b')");
    sql(ConnectionSource.of(inDatabase(url, CRM), null, null),
        "CREATE TABLE public.contacts (id int PRIMARY KEY, name text)",
        "COMMENT ON TABLE public.contacts IS 'People we deal with'",
        "INSERT INTO public.contacts VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')",
        "CREATE TABLE public.leads (id int PRIMARY KEY, email text)",
        "COMMENT ON TABLE public.leads IS 'Prospects from the web form'");
    llm = new ScriptedLlmServer(prompt -> "```sql\nSELECT count(*) AS n FROM contacts\n```");
    String bootstrap = TestInfra.kafkaBootstrap();
    TopicCatalog topics = new TopicCatalog(new TopicSettings("msq" + RUN, 1, (short) 1), new SerdeFactory(SerdeSettings.DEFAULT));
    TopicAdmin.createMissing(bootstrap, topics.all());
    SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), Map.of(
        "sources", ERP + "," + CRM, "sources." + ERP + ".db.url", inDatabase(url, ERP), "sources." + CRM + ".db.url", inDatabase(url, CRM),
        "reader.role", READER, "reader.password", "ms", "query.index.source", "catalog",
        "llm.base.url", llm.openAiUrl(), "llm.model", "stub", "query.group.id", "msq" + RUN + "-query"));
    service = QueryServices.create(config, store, url, topics, bootstrap);
    service.start(1);
    bus = new QuestionBus(bootstrap, topics);
  }

  /** The same server's URL for another database. */
  private static String inDatabase(String url, String database) {
    return url.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
  }

  @AfterAll
  static void stop() throws SQLException {
    if (service != null) {
      service.close();
    }
    llm.close();
    sql(store, "DROP DATABASE IF EXISTS " + ERP + " WITH (FORCE)", "DROP DATABASE IF EXISTS " + CRM + " WITH (FORCE)",
        "DROP DATABASE IF EXISTS " + HR + " WITH (FORCE)",
        "DROP OWNED BY " + READER, "DROP ROLE IF EXISTS " + READER);
  }

  private static void sql(ConnectionSource db, String... statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  private static QuestionRequested question(String databaseId, String text) {
    return QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(databaseId).setQuestion(text)
        .setOptions(QuestionOptions.newBuilder().build()).setRequestedBy("it").setRequestedAtMs(System.currentTimeMillis()).build();
  }

  @Test
  void eachQuestionRunsOnTheSourceItNames() throws Exception {
    var erp = bus.ask(question(ERP, "How many contacts are there?")).answer();
    var crm = bus.ask(question(CRM, "How many contacts are there?")).answer();
    assertThat(erp.getDatabaseId()).isEqualTo(ERP);
    assertThat(erp.getRowsPreview()).containsExactly(List.of("2"));
    assertThat(crm.getDatabaseId()).isEqualTo(CRM);
    assertThat(crm.getRowsPreview()).containsExactly(List.of("5"));
  }

  @Test
  void eachDatabaseIsRetrievedFromItsOwnIndex() throws Exception {
    var erp = bus.ask(question(ERP, "How many contacts are there?")).answer();
    var crm = bus.ask(question(CRM, "How many contacts are there?")).answer();
    assertThat(erp.getContextPacket().toString()).doesNotContain("leads");
    assertThat(crm.getContextPacket().toString()).contains("leads");
  }

  @Test
  void aDatabaseThatIsNoSourceFailsAsUnknownDatabaseNamingTheSources() throws Exception {
    QueryFailed f = bus.ask(question("hr", "How many contacts are there?")).failure();
    assertThat(f.getErrorClass()).isEqualTo("unknown_database");
    assertThat(f.getMessage()).contains("unknown database 'hr'").contains("'" + ERP + "'").contains("'" + CRM + "'");
  }

  private static List<SourceDatabase> sources(String... ids) {
    Map<String, String> m = new java.util.HashMap<>(Map.of("sources", String.join(",", ids)));
    for (String id : ids) {
      m.put("sources." + id + ".db.url", inDatabase(url, id));
    }
    return SourceDatabases.of(SchemaragConfig.defaults().with(m));
  }

  @Test
  void aSourceAddedAtRuntimeIsAnsweredAndOneRemovedIsUnknownAgain() throws Exception {
    assertThat(bus.ask(question(HR, "How many contacts are there?")).failure().getErrorClass()).isEqualTo("unknown_database");
    service.applySources(sources(ERP, CRM, HR));
    try {
      assertThat(bus.ask(question(HR, "How many contacts are there?")).answer().getRowsPreview()).containsExactly(List.of("1"));
    } finally {
      service.applySources(sources(ERP, CRM));
    }
    assertThat(bus.ask(question(HR, "How many contacts are there?")).failure().getErrorClass()).isEqualTo("unknown_database");
    assertThat(bus.ask(question(ERP, "How many contacts are there?")).answer().getRowsPreview()).containsExactly(List.of("2"));
  }
}
