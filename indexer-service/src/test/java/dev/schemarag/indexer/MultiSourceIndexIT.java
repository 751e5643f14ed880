package dev.schemarag.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.ingest.AuditInstaller;
import dev.schemarag.ingest.IngestSources;
import dev.schemarag.service.ServiceSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two source databases in one stack: one ingest process with a Debezium engine per source, one
 * indexer, one pgvector store. Each source's tables, DDL and docs end up under its own database id.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiSourceIndexIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static String erp;
  private static String crm;
  private static ConnectionSource store;
  private static PgChunkStore chunks;
  private static List<SourceDatabase> sources;
  private static Path docsRoot;
  private static IngestSources ingest;
  private static IndexerService indexer;
  @TempDir static Path temp;

  @BeforeAll
  static void start() throws Exception {
    String url = TestInfra.postgresUrl();
    store = ConnectionSource.of(url, null, null);
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    erp = "erp_" + run;
    crm = "crm_" + run;
    sql(store, "CREATE DATABASE " + erp, "CREATE DATABASE " + crm);
    sql(ConnectionSource.of(inDatabase(url, erp), null, null),
        "CREATE TABLE public.invoices (id int PRIMARY KEY, amount numeric)",
        "COMMENT ON TABLE public.invoices IS 'Bills sent to customers'");
    sql(ConnectionSource.of(inDatabase(url, crm), null, null),
        "CREATE TABLE public.leads (id int PRIMARY KEY, email text)",
        "COMMENT ON TABLE public.leads IS 'Prospects from the web form'");
    docsRoot = temp.resolve("docs");
    Files.createDirectories(docsRoot.resolve(erp).resolve("docs"));
    Files.createDirectories(docsRoot.resolve(crm).resolve("docs"));
    String bootstrap = TestInfra.kafkaBootstrap();
    SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), pairs(
        "sources", erp + "," + crm,
        "sources." + erp + ".db.url", inDatabase(url, erp),
        "sources." + crm + ".db.url", inDatabase(url, crm),
        "topics.prefix", "ms" + run, "topics.partitions", "2", "ingest.slot.name", "slot_" + run,
        "docs.root", docsRoot.toString(), "docs.debounce.ms", "50",
        "indexer.application.id", "indexer-" + run, "indexer.state.dir", temp.resolve("state").toString(),
        "embedding.model", "bge-small-en-v15-q"));
    sources = SourceDatabases.of(config);
    TopicCatalog topics = ServiceSettings.topics(config);
    TopicAdmin.createMissing(bootstrap, topics.all());
    chunks = new PgChunkStore(store);
    indexer = IndexerService.create(config, store, bootstrap);
    indexer.start(WAIT);
    ingest = new IngestSources(sources, config, bootstrap, topics);
    ingest.start(new SimpleMeterRegistry());
  }

  /** The same server's URL for another database. */
  private static String inDatabase(String url, String database) {
    return url.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
  }

  private static Map<String, String> pairs(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @AfterAll
  static void stop() throws SQLException {
    if (ingest != null) {
      ingest.close();
    }
    if (indexer != null) {
      indexer.close();
    }
    for (SourceDatabase s : sources) {
      new AuditInstaller(ConnectionSource.of(s.url(), null, null), s.publication()).dropSlot(s.slot());
    }
    sql(store, "DROP DATABASE IF EXISTS " + erp + " WITH (FORCE)", "DROP DATABASE IF EXISTS " + crm + " WITH (FORCE)");
  }

  private static void sql(ConnectionSource db, String... statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  private static Set<String> tables(String databaseId) throws SQLException {
    return chunks.load(databaseId).stream().map(Chunk::table).collect(Collectors.toSet());
  }

  @Test
  @Order(1)
  void eachSourceHasItsOwnSlotAndIsIndexedUnderItsOwnDatabaseId() throws Exception {
    assertThat(sources).extracting(SourceDatabase::slot).doesNotHaveDuplicates();
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
      assertThat(tables(erp)).containsExactly("invoices");
      assertThat(tables(crm)).containsExactly("leads");
    });
    assertThat(ingest.notReady()).isEmpty();
  }

  @Test
  @Order(2)
  void ddlInOneSourceReachesOnlyItsDatabaseId() throws Exception {
    sql(ConnectionSource.of(sources.get(1).url(), null, null), "CREATE TABLE public.calls (id int PRIMARY KEY, lead_id int)");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(tables(crm)).containsExactlyInAnyOrder("leads", "calls"));
    assertThat(tables(erp)).containsExactly("invoices");
  }

  @Test
  @Order(3)
  void aDocInOneSourcesFolderReachesOnlyItsDatabaseId() throws Exception {
    Files.writeString(docsRoot.resolve(erp).resolve("docs").resolve("public.invoices.md"), """
        # Table: public.invoices

        ## Purpose
        Monthly dunning letters are sent from this ledger.
        """);
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(chunks.load(erp)).anySatisfy(c ->
        assertThat(c.embedText()).contains("dunning letters")));
    assertThat(chunks.load(crm)).noneSatisfy(c -> assertThat(c.embedText()).contains("dunning letters"));
  }

  private static boolean slotExists(SourceDatabase s) throws SQLException {
    try (Connection c = store.open(); var ps = c.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
      ps.setString(1, s.slot());
      try (var rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  @Test
  @Order(4)
  void removingASourceAtRuntimeRemovesItsChunksAndDropsItsSlot() throws Exception {
    assertThat(slotExists(sources.get(1))).isTrue();
    ingest.apply(List.of(sources.get(0)));
    assertThat(ingest.services()).containsOnlyKeys(erp);
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(tables(crm)).isEmpty());
    assertThat(slotExists(sources.get(1))).as("a slot nobody reads would keep WAL").isFalse();
    assertThat(tables(erp)).containsExactly("invoices");
  }

  @Test
  @Order(5)
  void addingASourceAtRuntimeIndexesItWithoutRestartingAnything() throws Exception {
    ingest.apply(sources);
    assertThat(ingest.services()).containsOnlyKeys(erp, crm);
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(tables(crm)).containsExactlyInAnyOrder("leads", "calls"));
    sql(ConnectionSource.of(sources.get(1).url(), null, null), "CREATE TABLE public.deals (id int PRIMARY KEY)");
    await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> assertThat(tables(crm)).contains("deals"));
  }
}
