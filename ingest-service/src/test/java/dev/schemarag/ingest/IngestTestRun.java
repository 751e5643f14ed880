package dev.schemarag.ingest;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import dev.schemarag.service.ServiceSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One integration test's own schema, replication slot, publication and topics on the shared PostgreSQL and
 * broker, so that tests never see each other's changes; {@link #close} drops them again.
 */
final class IngestTestRun implements AutoCloseable {

  final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  final String schema;
  final ConnectionSource db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
  final String bootstrap = TestInfra.kafkaBootstrap();
  final TopicCatalog topics;
  private IngestService ingest;

  /** @param name what the schema and the topics are named after */
  IngestTestRun(String name) {
    this.schema = name + "_" + run;
    this.topics = ServiceSettings.topics(SchemaragConfig.load(Optional.empty(), Map.of(),
        Map.of("topics.prefix", name + run, "topics.partitions", "1")));
    TopicAdmin.createMissing(bootstrap, topics.all());
  }

  String slot() {
    return "slot_" + run;
  }

  String publication() {
    return "pub_" + run;
  }

  /** Settings of an ingest service for this run's schema, slot and publication. */
  IngestService.Settings settings(java.nio.file.Path docs, Map<String, Object> kafka, int columnValues, java.time.Duration valuesRefresh) {
    return new IngestService.Settings(schema.replace('_', '-'), java.util.List.of(schema), TestInfra.postgresUrl(), "", "", slot(),
        publication(), docs, java.time.Duration.ofMillis(50), Map.of(), kafka, columnValues, valuesRefresh);
  }

  /** Starts the service on this run's topics; {@link #close} closes it. */
  IngestService start(IngestService.Settings settings) throws Exception {
    ingest = new IngestService(settings, topics);
    ingest.start();
    return ingest;
  }

  void sql(String... statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  /** A consumer from the start of its topics, reading committed records only. */
  KafkaConsumer<byte[], byte[]> consumer() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "ingest-it-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 1000);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public void close() throws SQLException {
    if (ingest != null) {
      ingest.close();
    }
    new AuditInstaller(db, publication()).dropSlot(slot());
    sql("DROP PUBLICATION IF EXISTS " + publication(), "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }
}
