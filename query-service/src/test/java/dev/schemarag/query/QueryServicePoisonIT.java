package dev.schemarag.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.contracts.TopicCatalog;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import dev.schemarag.infra.ScriptedLlmServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Poison and overload against the query service (real broker, real PostgreSQL, a scripted
 * OpenAI-protocol model): the replies that stopped it before, then an ordinary question.
 */
@Tag("integration")
class QueryServicePoisonIT {

  /** The broker's (and the producer's) record limit the answers must stay under. */
  private static final int RECORD_LIMIT = 1_048_576;
  private static final int ROWS_LIMIT = 50_000;

  private static QueryTestBed bed;
  private static String url;
  private static ConnectionSource admin;
  private static String schema;
  private static String bootstrap;
  private static ScriptedLlmServer llm;
  private static Stack normal;

  /** One query service with its own topics and group. */
  private record Stack(TopicCatalog topics, String group, Map<String, String> settings, QueryService service, SimpleMeterRegistry meters)
      implements AutoCloseable {
    @Override
    public void close() {
      service.close();
    }
  }

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  @BeforeAll
  static void start() throws Exception {
    bed = QueryTestBed.create("poison");
    url = bed.url;
    admin = bed.admin;
    schema = bed.schema;
    String t = schema + ".orders";
    String c = schema + ".customers";
    // 6^7 = 279,936 rows of over 500 bytes each, produced as they are fetched
    StringBuilder cross = new StringBuilder("SELECT o1.order_id, c1.name, repeat('w', 500) AS pad FROM ");
    for (int i = 1; i <= 7; i++) {
      cross.append(i == 1 ? "" : ", ").append(t).append(" o").append(i).append(", ").append(c).append(" c").append(i);
    }
    String wide = cross.toString();
    llm = new ScriptedLlmServer(prompt -> {
      if (prompt.contains("huge")) {
        return "SELECT repeat('x', 3000000) AS big";
      }
      if (prompt.contains("combination")) {
        return "```sql\n" + wide + "\n```";
      }
      for (String word : List.of("CALL refresh_everything()", "SET statement_timeout = 0", "COPY " + t + " TO STDOUT",
          "DO $$ BEGIN PERFORM 1; END $$")) {
        if (prompt.contains("[" + word.substring(0, word.indexOf(' ')) + "]")) {
          return word;
        }
      }
      return "```sql\nSELECT count(*) AS orders FROM " + t + "\n```";
    });
    bootstrap = bed.bootstrap;
    normal = stack(Map.of());
  }

  @AfterAll
  static void stop() {
    normal.close();
    llm.close();
  }

  /** A query service on fresh topics, with these settings over the test's own. */
  private static Stack stack(Map<String, String> extra) throws Exception {
    QueryTestBed.Topics topics = bed.topics(1);
    Map<String, String> settings = new HashMap<>(Map.of("llm.base.url", llm.openAiUrl(), "llm.model", "stub",
        "retrieval.relevance.gate", "0", "answer.max.rows.limit", String.valueOf(ROWS_LIMIT), "answer.preview.rows", "100000"));
    settings.putAll(extra);
    return start(topics.catalog(), topics.group(), bed.settings(topics, settings));
  }

  private static Stack start(TopicCatalog topics, String group, Map<String, String> settings) throws Exception {
    SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), settings);
    QueryService service = QueryServices.create(config, admin, url, topics, bootstrap);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    service.start(1, meters);
    return new Stack(topics, group, settings, service, meters);
  }

  private static QuestionRequested question(String id, String text, Integer maxRows) {
    return QuestionRequested.newBuilder().setQueryId(id.isEmpty() ? "" : id + "-" + RUN).setDatabaseId("poison-" + schema).setQuestion(text)
        .setOptions(QuestionOptions.newBuilder().setMaxRows(maxRows).build()).setRequestedBy("it")
        .setRequestedAtMs(System.currentTimeMillis()).build();
  }

  private static void send(String topic, byte[] key, byte[] value) throws Exception {
    try (var p = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>(topic, key, value)).get();
    }
  }

  private static void ask(Stack s, QuestionRequested q) throws Exception {
    var t = s.topics().requests();
    send(t.name(), t.keySerde().serializer().serialize(t.name(), new QueryKey(q.getQueryId())), t.valueSerde().serializer().serialize(t.name(), q));
  }

  private static List<ConsumerRecord<byte[], byte[]>> readUntil(String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
    return TopicReads.readUntil(bootstrap, topic, done, Duration.ofSeconds(90));
  }

  private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
    return TopicReads.readAll(bootstrap, topic);
  }

  /** The answers and failures of one query_id, once {@code count} of them are there. */
  private static Outcomes outcomes(Stack s, String queryId, int count) {
    var results = s.topics().results();
    var failures = s.topics().failures();
    List<QueryAnswered> answers = new ArrayList<>();
    List<QueryFailed> failed = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (answers.size() + failed.size() < count && System.nanoTime() < deadline) {
      answers.clear();
      failed.clear();
      for (ConsumerRecord<byte[], byte[]> r : readAll(results.name())) {
        QueryAnswered a = results.valueSerde().deserializer().deserialize(results.name(), r.value());
        if (a.getQueryId().equals(queryId)) {
          answers.add(a);
        }
      }
      for (ConsumerRecord<byte[], byte[]> r : readAll(failures.name())) {
        QueryFailed f = failures.valueSerde().deserializer().deserialize(failures.name(), r.value());
        if (f.getQueryId().equals(queryId)) {
          failed.add(f);
        }
      }
    }
    return new Outcomes(answers, failed);
  }

  private record Outcomes(List<QueryAnswered> answers, List<QueryFailed> failures) {}

  private static QueryAnswered answer(Stack s, String id) {
    Outcomes o = outcomes(s, id + "-" + RUN, 1);
    assertThat(o.failures()).as("failures of " + id).isEmpty();
    assertThat(o.answers()).as("answers of " + id).hasSize(1);
    return o.answers().get(0);
  }

  private static QueryFailed failure(Stack s, String id) {
    Outcomes o = outcomes(s, id + "-" + RUN, 1);
    assertThat(o.answers()).as("answers of " + id).isEmpty();
    assertThat(o.failures()).as("failures of " + id).hasSize(1);
    return o.failures().get(0);
  }

  private static long bytes(Stack s, QueryAnswered a) {
    return s.topics().results().valueSerde().serializer().serialize(s.topics().results().name(), a).length;
  }

  @Test
  void bothAttacksAreAnsweredWithinTheBudgetAndTheNextQuestionIsAnswered() throws Exception {
    // 1. A 3 MB value: cut to answer.max.value.bytes, the answer says so.
    ask(normal, question("huge", "How many orders are there? Show them huge.", null));
    QueryAnswered huge = answer(normal, "huge");
    assertThat(huge.getRowCount()).isEqualTo(1);
    assertThat(huge.getTruncated()).isTrue();
    assertThat(huge.getRowsPreview().get(0).get(0)).startsWith("xxx").endsWith("…[3000000 bytes, cut]")
        .hasSizeLessThanOrEqualTo(8192);
    assertThat(bytes(normal, huge)).isLessThan(RECORD_LIMIT / 4);

    // 2. A wide cross join with max_rows 2,000,000,000: capped at answer.max.rows.limit, counted in full, rows cut to the budget.
    ask(normal, question("cross", "Every combination of orders and customers", 2_000_000_000));
    QueryAnswered cross = answer(normal, "cross");
    assertThat(cross.getRowCount()).as("capped by answer.max.rows.limit").isEqualTo(ROWS_LIMIT);
    assertThat(cross.getTruncated()).isTrue();
    assertThat(cross.getRowsPreview()).hasSizeBetween(100, 1_000); // 262,144 bytes of rows of about 520 bytes
    assertThat(bytes(normal, cross)).isLessThan(RECORD_LIMIT / 2);
    System.out.printf("poison: repeat('x', 3000000) answered in %d bytes (%d ms); cross join max_rows 2000000000: row_count %d,"
        + " %d rows carried in %d bytes (%d ms)%n", bytes(normal, huge), huge.getTimingsMs().get("total"), cross.getRowCount(),
        cross.getRowsPreview().size(), bytes(normal, cross), cross.getTimingsMs().get("total"));

    // 3. And the service still answers an ordinary question.
    ask(normal, question("after", "How many orders are there?", null));
    QueryAnswered after = answer(normal, "after");
    assertThat(after.getRowsPreview()).containsExactly(List.of("3"));
    assertThat(after.getTruncated()).isFalse();
  }

  @Test
  void anAnswerOverTheRecordLimitBecomesAFailureAndIsNeverEmittedAgainEvenAfterARestart() throws Exception {
    // Budgets set above the record limit, so the 3 MB answer reaches the producer.
    Stack loose = stack(Map.of("answer.max.bytes", "8388608", "answer.max.value.bytes", "8388608"));
    Stack restarted = null;
    try {
      QuestionRequested poison = question("too-big", "How many orders are there? Show them huge.", null);
      ask(loose, poison);
      QueryFailed f = failure(loose, "too-big");
      assertThat(f.getErrorClass()).isEqualTo("infra_failure");
      assertThat(f.getStage()).isEqualTo("publish");
      assertThat(f.getMessage()).contains("could not be published").contains("RecordTooLargeException");
      assertThat(loose.meters().counter(QueryMetrics.UNPUBLISHABLE).count()).isEqualTo(1.0);

      // The worker lives on.
      ask(loose, question("next", "How many orders are there?", null));
      assertThat(answer(loose, "next").getRowsPreview()).containsExactly(List.of("3"));

      // A restart on the same topics and group, and the same request again: its stored failure, never the poison answer.
      loose.close();
      restarted = start(loose.topics(), loose.group(), loose.settings());
      int generations = llm.requests().size();
      ask(restarted, poison);
      Outcomes again = outcomes(restarted, poison.getQueryId(), 2);
      assertThat(again.answers()).isEmpty();
      assertThat(again.failures()).hasSize(2).allSatisfy(x -> assertThat(x.getStage()).isEqualTo("publish"));
      assertThat(llm.requests()).as("not generated again").hasSize(generations);
      ask(restarted, question("after-restart", "How many orders are there?", null));
      assertThat(answer(restarted, "after-restart").getRowsPreview()).containsExactly(List.of("3"));
    } finally {
      loose.close();
      if (restarted != null) {
        restarted.close();
      }
    }
  }

  @Test
  void repliesThatReadNothingAreValidationBlocksInOneAttempt() throws Exception {
    for (String word : List.of("CALL", "SET", "COPY", "DO")) {
      ask(normal, question("reply-" + word, "How many orders are there? [" + word + "]", null));
    }
    for (String word : List.of("CALL", "SET", "COPY", "DO")) {
      QueryFailed f = failure(normal, "reply-" + word);
      assertThat(f.getErrorClass()).as(word).isEqualTo("validation_block");
      assertThat(f.getStage()).as(word).isEqualTo("guard");
      assertThat(f.getAttempts()).as(word).isEqualTo(1);
      assertThat(f.getMessage()).as(word).contains("found " + word);
    }
  }

  @Test
  void aRequestWithAnEmptyQueryIdGoesToTheDlqWithTheReason() throws Exception {
    ask(normal, question("", "How many orders are there?", null));
    String dlq = normal.topics().dlq(normal.topics().requests()).name();
    ConsumerRecord<byte[], byte[]> dead = readUntil(dlq, l -> !l.isEmpty()).get(0);
    assertThat(new String(dead.headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
        .contains("empty query_id");
    ask(normal, question("after-empty", "How many orders are there?", null));
    assertThat(answer(normal, "after-empty").getRowsPreview()).containsExactly(List.of("3"));
  }

  @Test
  void aReusedQueryIdGetsTheEarlierAnswerAgainOrAFailureNeverSilence() throws Exception {
    ask(normal, question("reused", "How many orders are there?", null));
    QueryAnswered first = answer(normal, "reused");
    int generations = llm.requests().size();

    ask(normal, question("reused", "How many orders are there?", null));
    Outcomes same = outcomes(normal, "reused-" + RUN, 2);
    assertThat(same.answers()).hasSize(2).allSatisfy(a -> assertThat(a).isEqualTo(first));
    assertThat(llm.requests()).as("the SQL is not generated nor run again").hasSize(generations);

    ask(normal, question("reused", "Which customers are there?", null));
    Outcomes other = outcomes(normal, "reused-" + RUN, 3);
    assertThat(other.failures()).singleElement().satisfies(f -> {
      assertThat(f.getErrorClass()).isEqualTo("validation_block");
      assertThat(f.getMessage()).contains("was used before for another question");
    });

    // Another principal with the same question never gets the first one's answer.
    ask(normal, QuestionRequested.newBuilder(question("reused", "How many orders are there?", null)).setRequestedBy("someone-else").build());
    Outcomes stranger = outcomes(normal, "reused-" + RUN, 4);
    assertThat(stranger.answers()).hasSize(2);
    assertThat(stranger.failures()).hasSize(2).last().satisfies(f -> assertThat(f.getRequestedBy()).isEqualTo("someone-else"));
  }

  @Test
  void anUndecodableIndexUpdateGoesToItsDlqAndQuestionsAreStillAnswered() throws Exception {
    String events = normal.topics().indexEvents().name();
    send(events, "k".getBytes(StandardCharsets.UTF_8), "not an index update".getBytes(StandardCharsets.UTF_8));
    String dlq = normal.topics().dlq(normal.topics().indexEvents()).name();
    ConsumerRecord<byte[], byte[]> dead = readUntil(dlq, l -> !l.isEmpty()).get(0);
    assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("not an index update");
    assertThat(new String(dead.headers().lastHeader(TopicCatalog.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
        .contains("undecodable index update");
    assertThat(new String(dead.headers().lastHeader(TopicCatalog.DLQ_SOURCE_HEADER).value(), StandardCharsets.UTF_8))
        .startsWith(events + "/0@");
    ask(normal, question("after-index", "How many orders are there?", null));
    assertThat(answer(normal, "after-index").getRowsPreview()).containsExactly(List.of("3"));
  }
}
