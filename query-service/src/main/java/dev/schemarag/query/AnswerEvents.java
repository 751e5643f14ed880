package dev.schemarag.query;

import dev.schemarag.core.answer.AnswerEngine;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import dev.schemarag.core.sql.ErrorClass;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QuestionRequested;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Maps the engine's results onto the event contracts. */
final class AnswerEvents {
  private AnswerEvents() {}

  static QueryAnswered answered(QuestionRequested q, SchemaContextPacket packet, AnswerEngine.Result r, Map<String, Long> timings,
                                long now) {
    var rows = r.rows();
    List<List<String>> preview = new ArrayList<>();
    rows.ifPresent(x -> x.preview().forEach(row -> preview.add(new ArrayList<>(row))));
    return QueryAnswered.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
        .setSql(r.sql().orElse(null)).setSqlSource(r.sql().isPresent() ? r.sqlSource() : "none")
        .setTables(r.tables().isEmpty() ? packet.tableNames() : r.tables())
        .setColumnNames(rows.map(x -> x.columns()).orElse(List.of()))
        .setRowsPreview(preview).setRowCount(rows.map(x -> x.rowCount()).orElse(0L)).setTruncated(rows.map(x -> x.truncated()).orElse(false))
        .setContextPacket(packet.toPrompt()).setRetrievalMetrics(new LinkedHashMap<>(packet.metrics()))
        .setAttempts(r.attempts().size()).setTimingsMs(new LinkedHashMap<>(timings)).setAnsweredAtMs(now)
        .setNote(r.sqlSource().equals(AnswerEngine.SOURCE_PATTERN) ? r.message() : null).build();
  }

  /** A grounding-only answer: the packet, no SQL; {@code note} says why the packet is empty when it is. */
  static QueryAnswered grounded(QuestionRequested q, SchemaContextPacket packet, Map<String, Long> timings, long now, String note) {
    return QueryAnswered.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
        .setSql(null).setSqlSource("none").setTables(packet.tableNames())
        .setContextPacket(packet.toPrompt()).setRetrievalMetrics(new LinkedHashMap<>(packet.metrics()))
        .setAttempts(0).setTimingsMs(new LinkedHashMap<>(timings)).setAnsweredAtMs(now).setNote(note).build();
  }

  /** The relevance gate refused the question: {@code no_relevant_schema}, before any model is asked. */
  static QueryFailed refused(QuestionRequested q, SchemaContextPacket packet, String reason, long now) {
    return QueryFailed.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
        .setErrorClass(ErrorClass.NO_RELEVANT_SCHEMA.label()).setSqlstate(null).setStage("retrieval").setMessage(reason)
        .setAttempts(0).setLastSql(null).setContextPacket(packet.toPrompt()).setFailedAtMs(now).build();
  }

  /** The exam record of a refused question: no attempt was made, and audit consumers see why. */
  static ExamRecord refusalRecord(QuestionRequested q, String reason, long now) {
    return refusalRecord(q, ErrorClass.NO_RELEVANT_SCHEMA, reason, now);
  }

  static ExamRecord refusalRecord(QuestionRequested q, ErrorClass c, String reason, long now) {
    return ExamRecord.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setAttempt(0).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
        .setPacketTables(List.of()).setPacketSummary("0 tables: " + reason).setPromptHash(null).setSql(null)
        .setLintIssues(List.of()).setExplainOutcome(null).setErrorClass(c.label()).setSqlstate(null)
        .setLatencyMs(0).setRecordedAtMs(now).build();
  }

  static QueryFailed failed(QuestionRequested q, SchemaContextPacket packet, AnswerEngine.Result r, long now) {
    return QueryFailed.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
        .setErrorClass(r.error().map(ErrorClass::label).orElse(ErrorClass.UNKNOWN.label()))
        .setSqlstate(r.sqlState().orElse(null)).setStage(r.stage()).setMessage(r.message())
        .setAttempts(r.attempts().size()).setLastSql(r.sql().orElse(null))
        .setContextPacket(packet == null ? null : packet.toPrompt()).setFailedAtMs(now).build();
  }

  /** A failure before any attempt (retrieval could not run). */
  static QueryFailed failedEarly(QuestionRequested q, ErrorClass c, String stage, String message, long now) {
    return QueryFailed.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
        .setErrorClass(c.label()).setSqlstate(null).setStage(stage).setMessage(message).setAttempts(0).setLastSql(null)
        .setContextPacket(null).setFailedAtMs(now).build();
  }

  /** Stamps the role a question ran under on its outcome and exam records, for audit. */
  static void runAs(String role, org.apache.avro.specific.SpecificRecord result, List<ExamRecord> exam) {
    if (result instanceof QueryAnswered a) {
      a.setRunAsRole(role);
    } else if (result instanceof QueryFailed f) {
      f.setRunAsRole(role);
    }
    exam.forEach(e -> e.setRunAsRole(role));
  }

  /**
   * In place of an outcome that could not be published or encoded: small whatever the outcome held
   * (no packet, no SQL), so that it fits where the outcome did not.
   */
  static QueryFailed unpublishable(QuestionRequested q, String reason, long now) {
    return QueryFailed.newBuilder()
        .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setDatabaseId(q.getDatabaseId())
        .setQuestion(q.getQuestion().length() > MAX_ECHO_CHARS ? q.getQuestion().substring(0, MAX_ECHO_CHARS) + "…" : q.getQuestion())
        .setErrorClass(ErrorClass.INFRA_FAILURE.label()).setSqlstate(null).setStage("publish")
        .setMessage(reason.length() > MAX_ECHO_CHARS ? reason.substring(0, MAX_ECHO_CHARS) + "…" : reason)
        .setAttempts(0).setLastSql(null).setContextPacket(null).setFailedAtMs(now).build();
  }

  /** The most characters of the question or of a reason that a failure in place of an unpublishable outcome repeats. */
  static final int MAX_ECHO_CHARS = 8192;

  static List<ExamRecord> exam(QuestionRequested q, SchemaContextPacket packet, AnswerEngine.Result r, long now) {
    List<ExamRecord> out = new ArrayList<>();
    String summary = packet.tableNames().size() + " tables: " + String.join(", ", packet.tableNames());
    for (AnswerEngine.Attempt a : r.attempts()) {
      out.add(ExamRecord.newBuilder()
          .setQueryId(q.getQueryId()).setRequestedBy(q.getRequestedBy()).setAttempt(a.number()).setDatabaseId(q.getDatabaseId()).setQuestion(q.getQuestion())
          .setPacketTables(packet.tableNames()).setPacketSummary(summary).setPromptHash(a.promptHash())
          .setSql(a.sql().orElse(null)).setLintIssues(a.lintIssues()).setExplainOutcome(a.explainOutcome().orElse(null))
          .setErrorClass(a.error().map(ErrorClass::label).orElse(null)).setSqlstate(a.sqlState().orElse(null))
          .setLatencyMs(a.latencyMs()).setRecordedAtMs(now).build());
    }
    return out;
  }
}
