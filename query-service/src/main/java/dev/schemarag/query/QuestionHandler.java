package dev.schemarag.query;

import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.answer.AnswerEngine;
import dev.schemarag.core.answer.SqlGenerator;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.sql.ErrorClass;
import dev.schemarag.core.sql.ReadOnlyExecutor;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QuestionRequested;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/** One question in, its outcome out: retrieval, then (unless grounding only) the answering loop. No Kafka here. */
final class QuestionHandler {

  /** The answer or failure to emit, with the exam records of its attempts. */
  record Outcome(SpecificRecord result, boolean answered, List<ExamRecord> exam) {}

  private final SchemaIndexCache indexes;
  private final Function<String, DenseSearch> dense;
  private final Embedder embedder;
  private final RetrievalSettings retrieval;
  private final Optional<SqlGenerator> generator;
  private final Function<String, ReadOnlyExecutor> executors;
  private final AnswerEngine.Settings answer;
  private final int maxQuestionChars;
  private final AccessPolicy policy;
  private final Function<String, AccessViews> views;

  /**
   * @param executors the read-only executor of each database id (its own source's connections)
   * @param views what each role may read, per database id
   */
  QuestionHandler(SchemaIndexCache indexes, Function<String, DenseSearch> dense, Embedder embedder, RetrievalSettings retrieval,
                  Optional<SqlGenerator> generator, Function<String, ReadOnlyExecutor> executors, AnswerEngine.Settings answer,
                  int maxQuestionChars, AccessPolicy policy, Function<String, AccessViews> views) {
    this.maxQuestionChars = maxQuestionChars;
    this.policy = policy;
    this.views = views;
    this.indexes = indexes;
    this.dense = dense;
    this.embedder = embedder;
    this.retrieval = retrieval;
    this.generator = generator;
    this.executors = executors;
    this.answer = answer;
  }

  /** The loaded indexes (diagnostics: how often they were loaded in full, how many table updates they took). */
  SchemaIndexCache indexes() {
    return indexes;
  }

  /** The principal the policy decides a question is asked by (the default one when it names none), as its events name it. */
  String principalOf(QuestionRequested asked) {
    return principalOf(asked, policy.decide(Optional.ofNullable(asked.getRequestedBy()), asked.getRequestedByGroups()));
  }

  private static String principalOf(QuestionRequested asked, AccessPolicy.Decision access) {
    return access instanceof AccessPolicy.AsRole a ? a.principal()
        : access instanceof AccessPolicy.Refused r ? r.principal() : asked.getRequestedBy();
  }

  Outcome handle(QuestionRequested asked) {
    AccessPolicy.Decision access = policy.decide(Optional.ofNullable(asked.getRequestedBy()), asked.getRequestedByGroups());
    // Events name the principal the policy decided on: the default one when the question named none.
    QuestionRequested q = QuestionRequested.newBuilder(asked).setRequestedBy(principalOf(asked, access)).build();
    Optional<String> role = access instanceof AccessPolicy.AsRole r ? Optional.of(r.role()) : Optional.empty();
    Outcome out = handle(q, access);
    AnswerEvents.runAs(role.orElse(null), out.result(), out.exam());
    return out;
  }

  private Outcome handle(QuestionRequested q, AccessPolicy.Decision access) {
    long t0 = System.currentTimeMillis();
    Optional<String> invalid = QuestionRules.problem(q.getQuestion(), maxQuestionChars);
    if (invalid.isPresent()) {
      return new Outcome(AnswerEvents.failedEarly(q, ErrorClass.VALIDATION_BLOCK, "validation", invalid.get(), t0), false, List.of());
    }
    if (access instanceof AccessPolicy.Refused r) {
      return new Outcome(AnswerEvents.failedEarly(q, ErrorClass.UNKNOWN_PRINCIPAL, "access", r.message(), t0), false,
          List.of(AnswerEvents.refusalRecord(q, ErrorClass.UNKNOWN_PRINCIPAL, r.message(), t0)));
    }
    SchemaIndex index;
    SchemaContextPacket packet;
    ReadOnlyExecutor executor;
    try {
      // An unknown database fails here, before any connection is chosen.
      index = indexes.get(q.getDatabaseId());
      executor = executors.apply(q.getDatabaseId());
      DenseSearch search = index.denseOr(dense.apply(q.getDatabaseId()));
      if (access instanceof AccessPolicy.AsRole a) {
        // Retrieval, the prompt, the guard and the database all see only what the role may read.
        AccessViews.RoleIndex seen = views.apply(q.getDatabaseId()).of(index, a.role());
        if (seen.index() != index) {
          search = search.within(seen.view());
        }
        index = seen.index();
        executor = executor.as(a.role(), seen.redactor()::redact);
      }
      RetrievalSettings s = q.getOptions().getTopK() == null ? retrieval : retrieval.withTopK(q.getOptions().getTopK());
      packet = new SchemaRetriever(index, search, embedder, s).retrieve(q.getQuestion());
      indexes.asked(q.getDatabaseId(), q.getQuestion());
    } catch (UnknownDatabaseException e) {
      return new Outcome(AnswerEvents.failedEarly(q, ErrorClass.UNKNOWN_DATABASE, "retrieval", e.getMessage(), System.currentTimeMillis()),
          false, List.of());
    } catch (IllegalArgumentException e) {
      return new Outcome(AnswerEvents.failedEarly(q, ErrorClass.VALIDATION_BLOCK, "retrieval", e.getMessage(), System.currentTimeMillis()),
          false, List.of());
    } catch (RuntimeException e) {
      return new Outcome(AnswerEvents.failedEarly(q, ErrorClass.INFRA_FAILURE, "retrieval", String.valueOf(e.getMessage()),
          System.currentTimeMillis()), false, List.of());
    }
    Map<String, Long> timings = new LinkedHashMap<>();
    timings.put("retrieval", System.currentTimeMillis() - t0);
    long now = System.currentTimeMillis();
    if (packet.refusal().isPresent()) {
      String reason = packet.refusal().get().message();
      if (q.getOptions().getGroundingOnly()) {
        return new Outcome(AnswerEvents.grounded(q, packet, timings, now, reason), true, List.of());
      }
      // Nothing in the schema fits: no model is asked to write SQL for it.
      return new Outcome(AnswerEvents.refused(q, packet, reason, now), false, List.of(AnswerEvents.refusalRecord(q, reason, now)));
    }
    if (q.getOptions().getGroundingOnly()) {
      return new Outcome(AnswerEvents.grounded(q, packet, timings, now, null), true, List.of());
    }
    // The client's max_rows is capped by answer.max.rows.limit: it cannot make the service read more.
    AnswerEngine.Settings settings = q.getOptions().getMaxRows() == null ? answer
        : answer.withMaxRows(q.getOptions().getMaxRows());
    long t1 = System.currentTimeMillis();
    AnswerEngine.Result r;
    try {
      r = new AnswerEngine(generator, executor, index.model(), Optional.of(embedder), settings)
          .answer(q.getQuestion(), packet, q.getOptions().getExecute());
    } catch (RuntimeException | StackOverflowError e) {
      // Whatever a reply did to the answering loop, the question gets its failure event.
      return new Outcome(AnswerEvents.failedEarly(q, ErrorClass.UNKNOWN, "answer", "the answering loop failed: " + e,
          System.currentTimeMillis()), false, List.of());
    }
    timings.put("answer", System.currentTimeMillis() - t1);
    timings.put("total", System.currentTimeMillis() - t0);
    now = System.currentTimeMillis();
    List<ExamRecord> exam = AnswerEvents.exam(q, packet, r, now);
    return r.answered()
        ? new Outcome(AnswerEvents.answered(q, packet, r, timings, now), true, exam)
        : new Outcome(AnswerEvents.failed(q, packet, r, now), false, exam);
  }
}
