package dev.schemarag.service;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What every service and the CLI derive the same way from configuration. */
public final class ServiceSettings {
  private ServiceSettings() {}

  /** The topic catalog the configuration describes (prefix, partitions, replication, wire format). */
  public static TopicCatalog topics(SchemaragConfig config) {
    SerdeSettings serde = new SerdeSettings(SerdeSettings.parseMode(config.get(ConfigKeys.SERDE_MODE)),
        config.optional(ConfigKeys.SERDE_REGISTRY_URL).orElse(null));
    TopicSettings topics = new TopicSettings(config.get(ConfigKeys.TOPICS_PREFIX),
        config.getInt(ConfigKeys.TOPICS_PARTITIONS), (short) config.getInt(ConfigKeys.TOPICS_REPLICATION));
    return new TopicCatalog(topics, new SerdeFactory(serde));
  }

  /** Kafka client properties: the {@code kafka.*} keys, prefix stripped, with the bootstrap servers. */
  public static Map<String, Object> kafka(SchemaragConfig config, String bootstrapServers) {
    Map<String, Object> kafka = new HashMap<>(config.withPrefix("kafka."));
    kafka.put("bootstrap.servers", bootstrapServers);
    return kafka;
  }

  /**
   * Consumer-group membership of the query workers and the indexer: a member killed without
   * leaving holds its partitions until its session times out, so this is what a takeover after
   * kill -9 waits for ({@code group.session.timeout.ms}); heartbeats go at a third of it, at most
   * the client's default 3 s.
   */
  public static Map<String, Object> groupMembership(SchemaragConfig config) {
    int session = config.getInt(ConfigKeys.GROUP_SESSION_TIMEOUT_MS);
    if (session < 1) {
      throw new IllegalArgumentException(ConfigKeys.GROUP_SESSION_TIMEOUT_MS.name() + " must be a positive number of ms, not " + session);
    }
    return Map.of("session.timeout.ms", session, "heartbeat.interval.ms", Math.max(1, Math.min(3000, session / 3)));
  }

  /** The monitored schemas ({@code catalog.schemas}), in order, blanks dropped. */
  public static List<String> schemas(SchemaragConfig config) {
    List<String> schemas = Arrays.stream(config.get(ConfigKeys.CATALOG_SCHEMAS).split(",")).map(String::trim)
        .filter(s -> !s.isEmpty()).toList();
    if (schemas.isEmpty()) {
      throw new IllegalArgumentException("catalog.schemas names no schema: give at least one, e.g. public");
    }
    return schemas;
  }

  public static String requiredDbUrl(SchemaragConfig config) {
    return config.optional(ConfigKeys.DB_URL)
        .orElseThrow(() -> new IllegalArgumentException("db.url (SCHEMARAG_DB_URL) is required"));
  }

  public static String requiredBootstrap(SchemaragConfig config) {
    return config.optional(ConfigKeys.KAFKA_BOOTSTRAP)
        .orElseThrow(() -> new IllegalArgumentException("kafka.bootstrap.servers (SCHEMARAG_KAFKA_BOOTSTRAP_SERVERS) is required"));
  }
}
