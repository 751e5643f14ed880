package dev.schemarag.cli;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Where a question without an outcome stopped, link by link: its request on the requests topic
 * (partition, offset), the query group's committed offset of that partition, its row in the answer
 * ledger, and outcome records keyed by it, read committed and uncommitted. A chaos run that leaves a
 * question unanswered prints this, so the broken link shows without a second run.
 */
final class UnansweredTrace {

  private UnansweredTrace() {}

  /** Where a record is: printed as {@code topic-partition@offset}. */
  record Position(TopicPartition partition, long offset) {
    @Override
    public String toString() {
      return partition + "@" + offset;
    }
  }

  private static String joined(List<Position> positions) {
    return String.join(",", positions.stream().map(Position::toString).toList());
  }

  /** One line per query_id, in the order given. */
  static List<String> of(Set<String> queryIds, TopicCatalog topics, Map<String, Object> kafka, String queryGroup, ConnectionSource db) {
    Map<String, StringBuilder> lines = new LinkedHashMap<>();
    queryIds.forEach(id -> lines.put(id, new StringBuilder(id).append(':')));
    try {
      Map<TopicPartition, Long> committed = committedOffsets(kafka, queryGroup);
      Map<String, List<Position>> requests = keyedRecords(topics, kafka, topics.requests().name(), "read_uncommitted", queryIds);
      requests.forEach((id, where) -> {
        Long group = committed.get(where.get(0).partition());
        lines.get(id).append(" request at ").append(joined(where)).append(", group committed ").append(group == null ? "nothing" : group);
      });
      queryIds.stream().filter(id -> !requests.containsKey(id)).forEach(id -> lines.get(id).append(" no request on the topic"));
      for (String topic : List.of(topics.results().name(), topics.failures().name())) {
        Map<String, List<Position>> committedOutcomes = keyedRecords(topics, kafka, topic, "read_committed", queryIds);
        Map<String, List<Position>> anyOutcomes = keyedRecords(topics, kafka, topic, "read_uncommitted", queryIds);
        anyOutcomes.forEach((id, where) -> lines.get(id).append("; on ").append(joined(where))
            .append(committedOutcomes.containsKey(id) ? " (committed)" : " (uncommitted or aborted only)"));
      }
    } catch (RuntimeException e) {
      lines.values().forEach(l -> l.append(" (topics unreadable: ").append(e.getMessage()).append(')'));
    }
    try (Connection c = db.open(); PreparedStatement ps = c.prepareStatement(
        "SELECT query_id, kind, emitted FROM schemarag_index.answers WHERE query_id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", queryIds.toArray()));
      Map<String, String> rows = new HashMap<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.put(rs.getString(1), rs.getString(2) + (rs.getBoolean(3) ? ", emitted" : ", not emitted"));
        }
      }
      lines.forEach((id, l) -> l.append("; ledger ").append(rows.getOrDefault(id, "has no row")));
    } catch (SQLException e) {
      lines.values().forEach(l -> l.append("; ledger unreadable: ").append(e.getMessage()));
    }
    return lines.values().stream().map(StringBuilder::toString).toList();
  }

  private static Map<TopicPartition, Long> committedOffsets(Map<String, Object> kafka, String group) {
    try (Admin admin = Admin.create(kafka)) {
      Map<TopicPartition, Long> out = new HashMap<>();
      admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
          .forEach((tp, om) -> out.put(tp, om == null ? null : om.offset()));
      return out;
    } catch (Exception e) {
      throw new IllegalStateException("the offsets of group " + group + " could not be read: " + e.getMessage(), e);
    }
  }

  /** query_id -> where the records on {@code topic} keyed by it are, in the order read. */
  private static Map<String, List<Position>> keyedRecords(TopicCatalog topics, Map<String, Object> kafka, String topic, String isolation, Set<String> ids) {
    Map<String, Object> c = new HashMap<>(kafka);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    Map<String, List<Position>> found = new HashMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      consumer.partitionsFor(topic, Duration.ofSeconds(10)).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(10));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      // read committed stops at the last stable offset: up to the end or 30 s, whichever comes first
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          String id = r.key() == null ? null : keyOf(topics, r);
          if (id != null && ids.contains(id)) {
            found.computeIfAbsent(id, k -> new ArrayList<>()).add(new Position(new TopicPartition(r.topic(), r.partition()), r.offset()));
          }
        }
      }
    }
    return found;
  }

  private static String keyOf(TopicCatalog topics, ConsumerRecord<byte[], byte[]> r) {
    try {
      QueryKey k = topics.requests().keySerde().deserializer().deserialize(r.topic(), r.key());
      return k == null ? null : k.getQueryId();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
