package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import dev.schemarag.service.ops.ServiceMetrics;
import dev.schemarag.service.ops.ServiceOps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The query service as its main runs it, health endpoint included: not ready while it starts,
 * ready once its worker has its partitions, and one question moves the question counter and the
 * latency histograms on /metrics. Real broker, real PostgreSQL, a scripted OpenAI-protocol model.
 */
@Tag("integration")
class QueryServiceHealthIT {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void readyOncePartitionsAreAssignedAndOneQuestionMovesTheCounterAndTheHistograms() throws Exception {
    QueryTestBed bed = QueryTestBed.create("qh");
    String schema = bed.schema;
    String bootstrap = bed.bootstrap;
    QueryTestBed.Topics t = bed.topics(1);
    TopicCatalog topics = t.catalog();
    String databaseId = bed.databaseId;
    SchemaragConfig config = bed.config(t, Map.of("query.http.port", "0"));
    AtomicReference<QueryService> service = new AtomicReference<>();
    try (ScriptedLlmServer llm = ScriptedLlmServer.replying("```sql\nSELECT count(*) AS orders FROM " + schema + ".orders\n```");
         ServiceOps ops = QueryServiceMain.serveHealth(config, bootstrap, bed.admin, ServiceMetrics.create(QueryServiceMain.NAME), service::get)) {
      String base = ops.url();
      assertThat(get(base + "/health/live").statusCode()).isEqualTo(200);
      HttpResponse<String> starting = get(base + "/health/ready");
      assertThat(starting.statusCode()).isEqualTo(503);
      assertThat(starting.body()).contains("broker: ok").contains("store: ok").contains("partitions: the service is starting");

      SchemaragConfig withModel = config.with(Map.of("llm.base.url", llm.openAiUrl(), "llm.model", "stub"));
      service.set(bed.service(t, withModel));
      try {
        service.get().start(1, ops.metrics().registry());
        await().atMost(Duration.ofSeconds(60)).until(() -> get(base + "/health/ready").statusCode() == 200);
        assertThat(get(base + "/health/ready").body()).isEqualTo("ready\nbroker: ok\nstore: ok\npartitions: ok\n");

        String queryId = "health-" + UUID.randomUUID();
        QuestionRequested q = QuestionRequested.newBuilder().setQueryId(queryId).setDatabaseId(databaseId)
            .setQuestion("How many orders are there?").setOptions(QuestionOptions.newBuilder().build()).setRequestedBy("it")
            .setRequestedAtMs(System.currentTimeMillis()).build();
        var requests = topics.requests();
        send(bootstrap, requests.name(), requests.keySerde().serializer().serialize(requests.name(), new QueryKey(queryId)),
            requests.valueSerde().serializer().serialize(requests.name(), q));
        send(bootstrap, requests.name(), "k".getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8));
        QueryAnswered answered = awaitAnswer(bootstrap, topics, queryId);
        assertThat(answered.getRowsPreview()).isNotEmpty();

        String service1 = "service=\"query-service\"";
        String dlq = topics.dlq(requests).name();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
          String metrics = get(base + "/metrics").body();
          assertThat(value(metrics, "schemarag_questions_total{failure_class=\"none\",outcome=\"answered\"," + service1 + "}")).isEqualTo(1.0);
          assertThat(value(metrics, "schemarag_dlq_records_total{" + service1 + ",topic=\"" + dlq + "\"}")).isEqualTo(1.0);
        });
        String metrics = get(base + "/metrics").body();
        assertThat(value(metrics, "schemarag_retrieval_duration_seconds_count{" + service1 + "}")).isEqualTo(1.0);
        assertThat(value(metrics, "schemarag_retrieval_duration_seconds_bucket{" + service1 + ",le=\"+Inf\"}")).isEqualTo(1.0);
        assertThat(value(metrics, "schemarag_answer_duration_seconds_count{" + service1 + "}")).isEqualTo(1.0);
        assertThat(value(metrics, "schemarag_question_duration_seconds_count{outcome=\"answered\"," + service1 + "}")).isEqualTo(1.0);
        assertThat(value(metrics, "schemarag_question_duration_seconds_sum{outcome=\"answered\"," + service1 + "}")).isPositive();
        assertThat(metrics).contains("kafka_consumer_").contains("kafka_producer_").contains("jvm_memory_used_bytes{");
      } finally {
        service.get().close();
      }
      HttpResponse<String> closed = get(base + "/health/ready");
      assertThat(closed.statusCode()).isEqualTo(503);
      assertThat(closed.body()).contains("partitions: the query service is closed");
    }
  }

  /** The value of one sample line, e.g. {@code name{labels} 1.0}; fails naming the sample when it is missing. */
  private static double value(String metrics, String sample) {
    Matcher m = Pattern.compile("^" + Pattern.quote(sample) + " (\\S+)$", Pattern.MULTILINE).matcher(metrics);
    assertThat(m.find()).as("sample %s in the scrape", sample).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void send(String bootstrap, String topic, byte[] key, byte[] value) throws Exception {
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topic, key, value)).get();
    }
  }

  private static QueryAnswered awaitAnswer(String bootstrap, TopicCatalog topics, String queryId) {
    var results = topics.results();
    List<QueryAnswered> got = new ArrayList<>();
    try (var c = new KafkaConsumer<>(Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(results.name()));
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (got.isEmpty() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          QueryAnswered a = results.valueSerde().deserializer().deserialize(r.topic(), r.value());
          if (a.getQueryId().equals(queryId)) {
            got.add(a);
          }
        }
      }
    }
    assertThat(got).as("answer to %s", queryId).hasSize(1);
    return got.get(0);
  }
}
