package dev.schemarag.query;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.answer.SalesSchema;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What the query service's integration tests share: the test infrastructure's PostgreSQL and broker,
 * a sales schema of the test's own with a reader role of its own (so tests never share a role's
 * grants), and topics under a fresh prefix for each service a test starts.
 */
final class QueryTestBed {

  final String url;
  final ConnectionSource admin;
  final String bootstrap;
  /** The sales schema of this test. */
  final String schema;
  /** The database id its questions name. */
  final String databaseId;
  private final String name;

  private QueryTestBed(String name) throws Exception {
    this.name = name;
    this.url = TestInfra.postgresUrl();
    this.admin = ConnectionSource.of(url, null, null);
    this.schema = SalesSchema.create(admin, name);
    this.databaseId = name + "-" + schema;
    this.bootstrap = TestInfra.kafkaBootstrap();
  }

  /** @param name short and distinct per test class: it names the schema, the database id and the reader role */
  static QueryTestBed create(String name) throws Exception {
    return new QueryTestBed(name);
  }

  /** Topics under a fresh prefix, created on the broker, and the query group that goes with them. */
  record Topics(TopicCatalog catalog, String group) {}

  Topics topics(int partitions) throws Exception {
    String prefix = name + UUID.randomUUID().toString().substring(0, 8);
    TopicCatalog catalog = new TopicCatalog(new TopicSettings(prefix, partitions, (short) 1), new SerdeFactory(SerdeSettings.DEFAULT));
    TopicAdmin.createMissing(bootstrap, catalog.all());
    return new Topics(catalog, prefix + "-query");
  }

  /** The settings every service of this test takes (database, schema, reader role, group), then {@code more}, which win. */
  Map<String, String> settings(Topics topics, Map<String, String> more) {
    Map<String, String> out = new HashMap<>(Map.of(
        "database.id", databaseId, "catalog.schemas", schema, "reader.role", "schemarag_reader_" + name, "reader.password", name,
        "query.group.id", topics.group()));
    out.putAll(more);
    return out;
  }

  SchemaragConfig config(Topics topics, Map<String, String> more) {
    return SchemaragConfig.load(Optional.empty(), Map.of(), settings(topics, more));
  }

  /** A query service over these topics with this configuration, not started. */
  QueryService service(Topics topics, SchemaragConfig config) throws Exception {
    return QueryServices.create(config, admin, url, topics.catalog(), bootstrap);
  }
}
