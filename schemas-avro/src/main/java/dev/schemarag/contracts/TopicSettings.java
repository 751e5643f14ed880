package dev.schemarag.contracts;

/**
 * @param prefix every topic name starts with it (default {@code schemarag})
 * @param partitions partitions of each keyed topic
 * @param replicationFactor replication of every topic (1 for a single local broker)
 */
public record TopicSettings(String prefix, int partitions, short replicationFactor) {

  public static final TopicSettings DEFAULT = new TopicSettings("schemarag", 3, (short) 1);

  public TopicSettings {
    if (prefix == null || !prefix.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("topics.prefix must be letters, digits, '.', '_' or '-', not '" + prefix + "'");
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("topics.partitions must be at least 1, not " + partitions);
    }
    if (replicationFactor < 1) {
      throw new IllegalArgumentException("topics.replication.factor must be at least 1, not " + replicationFactor);
    }
  }
}
