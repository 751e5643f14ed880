package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.SerdeFactory;
import dev.schemarag.contracts.SerdeSettings;
import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.contracts.TopicSettings;
import dev.schemarag.core.answer.SalesSchema;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.infra.TestInfra;
import dev.schemarag.infra.TopicAdmin;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    String url = TestInfra.postgresUrl();
    ConnectionSource admin = ConnectionSource.of(url, null, null);
    String schema = SalesSchema.create(admin, "lo");
    String bootstrap = TestInfra.kafkaBootstrap();
    String prefix = "lo" + UUID.randomUUID().toString().substring(0, 8);
    TopicCatalog topics = new TopicCatalog(new TopicSettings(prefix, PARTITIONS, (short) 1), new SerdeFactory(SerdeSettings.DEFAULT));
    TopicAdmin.createMissing(bootstrap, topics.all());
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (ScriptedLlmServer llm = new ScriptedLlmServer(prompt -> "```sql\nSELECT count(*) AS orders FROM " + schema + ".orders\n```")) {
      SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), Map.of(
          "database.id", "lo-" + schema, "catalog.schemas", schema, "reader.role", "schemarag_reader_lo", "reader.password", "lo",
          "llm.base.url", llm.openAiUrl(), "llm.model", "stub", "query.group.id", prefix + "-query"));
      try (QueryService service = QueryServices.create(config, admin, url, topics, bootstrap)) {
        String away = "answers_away_" + prefix;
        rename(admin, "answers", away);
        Set<String> asked = new HashSet<>();
        try {
          // Every request waits before the worker's first poll, so that poll returns several partitions' records.
          asked.addAll(ask(topics, bootstrap, "lo-" + schema));
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
