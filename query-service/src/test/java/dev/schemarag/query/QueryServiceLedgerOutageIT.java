package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The answer ledger away while requests of several partitions wait: a worker's poll returns records
 * of several partitions at once, and the one that cannot be processed must not make it skip the
 * others. The ledger is made unreachable by renaming its table (the service sees "relation does not
 * exist", as it would see a database it cannot reach), then given back.
 */
@Tag("integration")
class QueryServiceLedgerOutageIT {

  private static final int PARTITIONS = 4;
  private static final int QUESTIONS = 12;

  @Test
  void requestsOfOtherPartitionsInTheBatchOfADeferredOneAreAnsweredOnceTheLedgerIsBack() throws Exception {
    QueryTestBed bed = QueryTestBed.create("lo");
    ConnectionSource admin = bed.admin;
    String schema = bed.schema;
    String bootstrap = bed.bootstrap;
    QueryTestBed.Topics t = bed.topics(PARTITIONS);
    TopicCatalog topics = t.catalog();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (ScriptedLlmServer llm = new ScriptedLlmServer(prompt -> "```sql\nSELECT count(*) AS orders FROM " + schema + ".orders\n```")) {
      try (QueryService service = bed.service(t, bed.config(t, Map.of("llm.base.url", llm.openAiUrl(), "llm.model", "stub")))) {
        String away = "answers_away_" + t.group().replace('-', '_');
        rename(admin, "answers", away);
        Set<String> asked = new HashSet<>();
        try {
          // Every request waits before the worker's first poll, so that poll returns several partitions' records.
          asked.addAll(ask(topics, bootstrap, bed.databaseId));
          service.start(1, registry);
          await("a request deferred while the ledger is away").atMost(Duration.ofSeconds(60))
              .until(() -> registry.get(QueryMetrics.DEFERRED).counter().count() >= 1);
        } finally {
          rename(admin, away, "answers");
        }
        Set<String> outcomes = new HashSet<>();
        TopicReads.readUntil(bootstrap, topics.results().name(), records -> {
          for (ConsumerRecord<byte[], byte[]> r : records) {
            outcomes.add(topics.results().keySerde().deserializer().deserialize(r.topic(), r.key()).getQueryId());
          }
          return outcomes.containsAll(asked);
        }, Duration.ofSeconds(90));
        assertThat(outcomes).as("every request has its outcome, whichever partition it was on").containsAll(asked);
      }
    }
  }

  private static void rename(ConnectionSource admin, String from, String to) throws Exception {
    try (Connection c = admin.open(); Statement s = c.createStatement()) {
      s.execute("ALTER TABLE schemarag_index." + from + " RENAME TO " + to);
    }
  }

  private static List<String> ask(TopicCatalog topics, String bootstrap, String databaseId) throws Exception {
    var t = topics.requests();
    List<String> ids = new ArrayList<>();
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(),
        new ByteArraySerializer())) {
      for (int i = 0; i < QUESTIONS; i++) {
        String id = "lo-" + UUID.randomUUID();
        QuestionRequested q = QuestionRequested.newBuilder().setQueryId(id).setDatabaseId(databaseId).setQuestion("How many orders are there?")
            .setOptions(QuestionOptions.newBuilder().build()).setRequestedBy("it").setRequestedAtMs(System.currentTimeMillis()).build();
        p.send(new ProducerRecord<>(t.name(), t.keySerde().serializer().serialize(t.name(), new QueryKey(id)),
            t.valueSerde().serializer().serialize(t.name(), q)));
        ids.add(id);
      }
      p.flush();
    }
    return ids;
  }
}
