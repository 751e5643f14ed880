package dev.schemarag.contracts;

import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;

/**
 * A topic with its key and value serdes and how it is to be created.
 *
 * @param cleanupPolicy {@code compact} (latest value per key, tombstones delete) or {@code delete}
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, int partitions,
                          short replicationFactor, String cleanupPolicy) {

  public NewTopic newTopic() {
    return new NewTopic(name, partitions, replicationFactor)
        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, cleanupPolicy));
  }

  public boolean compacted() {
    return TopicConfig.CLEANUP_POLICY_COMPACT.equals(cleanupPolicy);
  }
}
