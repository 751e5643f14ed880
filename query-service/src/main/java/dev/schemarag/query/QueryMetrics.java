package dev.schemarag.query;

import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.service.ops.ServiceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;

/**
 * The query service's own meters, read off each outcome as it is emitted:
 * <ul>
 *   <li>{@code schemarag.questions} (outcome, failure_class): questions answered or failed, by failure class;</li>
 *   <li>{@code schemarag.question.duration} (outcome): handling time of a question in the service;</li>
 *   <li>{@code schemarag.retrieval.duration}, {@code schemarag.answer.duration}: the retrieval and answering
 *       stages of answered questions (their {@code timings_ms}), histograms for percentiles;</li>
 *   <li>{@code schemarag.dlq.records} (topic): records dead-lettered (requests, index updates);</li>
 *   <li>{@code schemarag.answers.unpublishable}: outcomes that could not be published and went out as a failure.</li>
 * </ul>
 */
final class QueryMetrics {

  static final String QUESTIONS = "schemarag.questions";
  static final String QUESTION_DURATION = "schemarag.question.duration";
  static final String RETRIEVAL_DURATION = "schemarag.retrieval.duration";
  static final String ANSWER_DURATION = "schemarag.answer.duration";
  static final String DLQ_RECORDS = "schemarag.dlq.records";
  static final String UNPUBLISHABLE = "schemarag.answers.unpublishable";
  static final String DEFERRED = "schemarag.requests.deferred";

  private final MeterRegistry registry;
  private final Timer retrieval;
  private final Timer answer;

  /** @param dlqTopics the dead-letter topics of requests and index updates, counted from 0 so the series exist before the first record */
  QueryMetrics(MeterRegistry registry, String... dlqTopics) {
    this.registry = registry;
    for (String t : dlqTopics) {
      dlqCounter(t);
    }
    unpublishableCounter();
    deferredCounter();
    this.retrieval = histogram(RETRIEVAL_DURATION, "retrieval stage of an answered question (dense + BM25 + fusion + FK expansion)")
        .register(registry);
    this.answer = histogram(ANSWER_DURATION, "answering stage of an answered question (generation, guard, lint, EXPLAIN, execution)")
        .register(registry);
  }

  static Timer.Builder histogram(String name, String description) {
    return Timer.builder(name).description(description).publishPercentileHistogram()
        .minimumExpectedValue(ServiceMetrics.MIN_LATENCY).maximumExpectedValue(ServiceMetrics.MAX_LATENCY);
  }

  /** A question handled now, {@code nanos} after it was picked up. */
  void handled(QuestionHandler.Outcome o, long nanos) {
    String outcome = o.answered() ? "answered" : "failed";
    String failureClass = o.result() instanceof QueryFailed f ? f.getErrorClass() : "none";
    Counter.builder(QUESTIONS).description("questions answered or failed, by failure class")
        .tags("outcome", outcome, "failure_class", failureClass).register(registry).increment();
    histogram(QUESTION_DURATION, "handling time of a question in the service, from pick-up to its outcome")
        .tags("outcome", outcome).register(registry).record(Duration.ofNanos(nanos));
    if (o.result() instanceof QueryAnswered a) {
      record(retrieval, a.getTimingsMs(), "retrieval");
      record(answer, a.getTimingsMs(), "answer");
    }
  }

  private static void record(Timer timer, Map<String, Long> timings, String stage) {
    Long ms = timings == null ? null : timings.get(stage);
    if (ms != null) {
      timer.record(Duration.ofMillis(ms));
    }
  }

  /** An outcome that could not be published, replaced by a failure event. */
  void unpublishable() {
    unpublishableCounter().increment();
  }

  private Counter unpublishableCounter() {
    return Counter.builder(UNPUBLISHABLE).description("answers or failures that could not be published (over the record size limit, refused)"
        + " and went out as a failure in their place").register(registry);
  }

  /** A request left to be read again (the answer ledger or the broker unavailable), with the rest of its batch. */
  void deferred() {
    deferredCounter().increment();
  }

  private Counter deferredCounter() {
    return Counter.builder(DEFERRED).description("requests left to be read again after a pause because the answer ledger or the broker"
        + " was unavailable").register(registry);
  }

  void deadLettered(String topic) {
    dlqCounter(topic).increment();
  }

  private Counter dlqCounter(String topic) {
    return Counter.builder(DLQ_RECORDS).description("records sent to a dead-letter topic, by that topic").tags("topic", topic)
        .register(registry);
  }
}
