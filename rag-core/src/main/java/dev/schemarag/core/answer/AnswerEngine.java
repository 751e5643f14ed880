package dev.schemarag.core.answer;

import dev.schemarag.core.chunk.Hashing;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.retrieval.PatternMatch;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.sql.ErrorClass;
import dev.schemarag.core.sql.ReadOnlyExecutor;
import dev.schemarag.core.sql.SqlGuard;
import dev.schemarag.core.sql.SqlLint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Answers one question from its context packet: generate SQL, guard it, lint it, EXPLAIN and run
 * it read-only; on failure classify and retry only when a retry can help (sql_error: repair;
 * query_timeout: once, simpler; everything else: never). Every attempt is recorded for the exam log.
 */
public final class AnswerEngine {

  /**
   * @param maxAttempts attempts per question (default 3)
   * @param maxRows rows a query may return when the question does not say
   * @param patternReuse with no model, the similarity from which a documented query pattern answers the question
   * @param maxRowsLimit the most rows a question may ask for: its own max_rows is capped to it
   */
  public record Settings(int maxAttempts, int maxRows, int previewRows, double patternReuse, int maxRowsLimit) {
    public static final Settings DEFAULT = from(SchemaragConfig.defaults());

    public Settings {
      if (maxAttempts < 1 || maxRows < 1 || previewRows < 0) {
        throw new IllegalArgumentException("answer.max.attempts and answer.max.rows must be at least 1, answer.preview.rows at least 0");
      }
      if (maxRows > maxRowsLimit) {
        throw new IllegalArgumentException("answer.max.rows (" + maxRows + ") must not exceed answer.max.rows.limit (" + maxRowsLimit + ")");
      }
      if (!(patternReuse > 0 && patternReuse <= 1.0)) {
        throw new IllegalArgumentException("answer.pattern.reuse.similarity must be in (0, 1], was " + patternReuse);
      }
    }

    public static Settings from(SchemaragConfig c) {
      return new Settings(c.getInt(ConfigKeys.ANSWER_MAX_ATTEMPTS), c.getInt(ConfigKeys.ANSWER_MAX_ROWS),
          c.getInt(ConfigKeys.ANSWER_PREVIEW_ROWS), c.getDouble(ConfigKeys.ANSWER_PATTERN_REUSE), c.getInt(ConfigKeys.ANSWER_MAX_ROWS_LIMIT));
    }

    /** The rows a question asked for, at least 1 and at most {@link #maxRowsLimit()}: a client cannot lift the server's cap. */
    public Settings withMaxRows(int rows) {
      return new Settings(maxAttempts, Math.min(maxRowsLimit, Math.max(1, rows)), previewRows, patternReuse, maxRowsLimit);
    }
  }

  /** Where an answer's SQL came from. */
  public static final String SOURCE_LLM = "llm";
  public static final String SOURCE_PATTERN = "query_pattern";

  /** One attempt, as the exam log records it. */
  public record Attempt(int number, String promptHash, Optional<String> sql, List<String> lintIssues,
                        Optional<String> explainOutcome, Optional<ErrorClass> error, Optional<String> sqlState,
                        String stage, Optional<String> message, long latencyMs) {}

  /**
   * The outcome of a question: an answer, or a classified failure; always with its attempts.
   *
   * @param sqlSource {@link #SOURCE_LLM} or {@link #SOURCE_PATTERN}
   */
  public record Result(boolean answered, Optional<String> sql, List<String> tables, Optional<ReadOnlyExecutor.Rows> rows,
                       Optional<ErrorClass> error, String stage, Optional<String> sqlState, String message, List<Attempt> attempts,
                       String sqlSource) {}

  private final Optional<SqlGenerator> generator;
  private final ReadOnlyExecutor executor;
  private final SchemaModel model;
  private final Optional<Embedder> embedder;
  private final Settings settings;

  public AnswerEngine(Optional<SqlGenerator> generator, ReadOnlyExecutor executor, SchemaModel model, Optional<Embedder> embedder,
                      Settings settings) {
    this.generator = generator;
    this.executor = executor;
    this.model = model;
    this.embedder = embedder;
    this.settings = settings;
  }

  public Result answer(String question, SchemaContextPacket packet, boolean execute) {
    List<Attempt> attempts = new ArrayList<>();
    if (generator.isEmpty()) {
      Optional<PatternMatch> close = packet.patterns().stream().filter(p -> p.similarity() >= settings.patternReuse()).findFirst();
      if (close.isPresent()) {
        return reusePattern(close.get(), execute);
      }
      return failed(ErrorClass.GENERATOR_UNAVAILABLE, "generation", Optional.empty(),
          "no LLM is configured (llm.base.url, llm.model) and no documented query pattern matches the question closely"
              + " (similarity >= " + settings.patternReuse() + "); the context packet is attached", Optional.empty(), attempts);
    }
    Prompts.Prompt first = Prompts.first(question, packet, packet.patterns().stream().map(PatternMatch::promptText).toList());
    Prompts.Prompt prompt = first;
    boolean simplified = false;
    Optional<String> lastSql = Optional.empty();
    Result last = null;
    Map<String, Set<String>> columns = packetColumns(packet);
    for (int n = 1; n <= settings.maxAttempts(); n++) {
      long t0 = System.nanoTime();
      String promptHash = Hashing.sha256(prompt.text()).substring(0, 16);
      String reply;
      try {
        reply = generator.get().complete(prompt);
      } catch (SqlGenerator.GeneratorException e) {
        attempts.add(new Attempt(n, promptHash, Optional.empty(), List.of(), Optional.empty(), Optional.of(ErrorClass.INFRA_FAILURE),
            Optional.empty(), "generation", Optional.of(e.getMessage()), ms(t0)));
        return failed(ErrorClass.INFRA_FAILURE, "generation", Optional.empty(), e.getMessage(), lastSql, attempts);
      }
      Optional<String> declined = SqlExtractor.declined(reply);
      if (declined.isPresent()) {
        // The model read the tables and found nothing that answers: no repair turns that into an answer.
        String msg = "the model found no answer in the tables offered (" + String.join(", ", packet.tableNames()) + "): " + declined.get();
        attempts.add(new Attempt(n, promptHash, Optional.empty(), List.of(), Optional.empty(), Optional.of(ErrorClass.NO_RELEVANT_SCHEMA),
            Optional.empty(), "generation", Optional.of(msg), ms(t0)));
        return failed(ErrorClass.NO_RELEVANT_SCHEMA, "generation", Optional.empty(), msg, lastSql, attempts);
      }
      Optional<String> extracted = SqlExtractor.extract(reply);
      if (extracted.isEmpty()) {
        attempts.add(new Attempt(n, promptHash, Optional.empty(), List.of(), Optional.empty(), Optional.of(ErrorClass.SQL_ERROR),
            Optional.empty(), "generation", Optional.of("the reply holds no SQL"), ms(t0)));
        last = failed(ErrorClass.SQL_ERROR, "generation", Optional.empty(), "the model's reply holds no SQL", lastSql, attempts);
        prompt = Prompts.repair(first, "", "your reply held no SQL statement", "");
        continue;
      }
      String sql = extracted.get();
      lastSql = Optional.of(sql);
      Optional<String> notReading = SqlGuard.notReading(sql);
      if (notReading.isPresent()) {
        // SET, COPY, DO, CALL …: no repair turns them into a question's answer.
        attempts.add(new Attempt(n, promptHash, lastSql, List.of(), Optional.empty(), Optional.of(ErrorClass.VALIDATION_BLOCK),
            Optional.empty(), "guard", notReading, ms(t0)));
        return failed(ErrorClass.VALIDATION_BLOCK, "guard", Optional.empty(), notReading.get(), lastSql, attempts);
      }
      List<SqlLint.Issue> issues;
      try {
        issues = SqlLint.lint(sql, columns);
      } catch (RuntimeException | StackOverflowError e) {
        // Text the linter cannot even walk is not repaired but refused, like anything the guard cannot verify.
        String msg = "the SQL cannot be checked: " + e;
        attempts.add(new Attempt(n, promptHash, lastSql, List.of(), Optional.empty(), Optional.of(ErrorClass.VALIDATION_BLOCK),
            Optional.empty(), "lint", Optional.of(msg), ms(t0)));
        return failed(ErrorClass.VALIDATION_BLOCK, "lint", Optional.empty(), msg, lastSql, attempts);
      }
      List<String> issueText = issues.stream().map(SqlLint.Issue::toString).toList();
      if (SqlLint.hasErrors(issues)) {
        // Lint errors go straight to repair: no guard verdict or EXPLAIN is spent on broken text.
        String msg = String.join("; ", issueText);
        attempts.add(new Attempt(n, promptHash, lastSql, issueText, Optional.empty(), Optional.of(ErrorClass.SQL_ERROR),
            Optional.empty(), "lint", Optional.of(msg), ms(t0)));
        last = failed(ErrorClass.SQL_ERROR, "lint", Optional.empty(), msg, lastSql, attempts);
        prompt = Prompts.repair(first, sql, msg, "");
        continue;
      }
      SqlGuard.Verdict verdict = SqlGuard.check(sql, packet.tableNames(), settings.maxRows());
      if (!verdict.allowed()) {
        attempts.add(new Attempt(n, promptHash, lastSql, issueText, Optional.empty(), Optional.of(ErrorClass.VALIDATION_BLOCK),
            Optional.empty(), "guard", Optional.of(verdict.reason()), ms(t0)));
        return failed(ErrorClass.VALIDATION_BLOCK, "guard", Optional.empty(), verdict.reason(), lastSql, attempts);
      }
      if (!execute) {
        attempts.add(new Attempt(n, promptHash, lastSql, issueText, Optional.empty(), Optional.empty(), Optional.empty(), "guard",
            Optional.empty(), ms(t0)));
        return new Result(true, lastSql, verdict.tables(), Optional.empty(), Optional.empty(), "guard", Optional.empty(), "not executed",
            attempts, SOURCE_LLM);
      }
      ReadOnlyExecutor.Outcome o = executor.run(verdict.sql(), packet.tableNames(), settings.maxRows(), settings.previewRows());
      attempts.add(new Attempt(n, promptHash, lastSql, issueText, o.plan().or(() -> o.stage().equals("explain") ? o.message() : Optional.empty()),
          o.error(), o.sqlState(), o.stage(), o.message(), ms(t0)));
      if (o.ok()) {
        return new Result(true, lastSql, verdict.tables(), o.rows(), Optional.empty(), "execute", Optional.empty(), "ok", attempts,
            SOURCE_LLM);
      }
      ErrorClass c = o.error().orElseThrow();
      last = failed(c, o.stage(), o.sqlState(), o.message().orElse(""), lastSql, attempts);
      if (c.retry() == ErrorClass.Retry.REPAIR) {
        String hint = "42703".equals(o.sqlState().orElse("")) ? MissingColumnHint.hint(sql, o.message().orElse(""), model, embedder) : "";
        prompt = Prompts.repair(first, sql, o.message().orElse(""), hint);
      } else if (c.retry() == ErrorClass.Retry.ONCE_SIMPLER && !simplified) {
        simplified = true;
        prompt = Prompts.simplify(first, sql);
      } else {
        return last;
      }
    }
    return last;
  }

  private Result failed(ErrorClass c, String stage, Optional<String> sqlState, String message, Optional<String> sql, List<Attempt> attempts) {
    return new Result(false, sql, List.of(), Optional.empty(), Optional.of(c), stage, sqlState, message, List.copyOf(attempts), SOURCE_LLM);
  }

  /**
   * No model, but a documented query matches the question closely: its SQL is the answer, as is.
   * Docs are edited by people and may name tables beyond the packet, so the guard allows the whole
   * schema here but still holds everything else (one read-only statement, no dangerous functions).
   * One attempt: there is no model to repair it.
   */
  private Result reusePattern(PatternMatch p, boolean execute) {
    long t0 = System.nanoTime();
    String note = String.format(java.util.Locale.ROOT, "reused the documented query pattern '%s' of %s (similarity %.2f); no LLM is configured",
        p.name(), p.table(), p.similarity());
    Optional<String> sql = Optional.of(p.sql());
    String hash = Hashing.sha256(p.promptText()).substring(0, 16);
    List<String> lint;
    try {
      lint = SqlLint.lint(p.sql(), Map.of()).stream().map(SqlLint.Issue::toString).toList();
    } catch (RuntimeException | StackOverflowError e) {
      lint = List.of("the SQL cannot be linted: " + e);
    }
    List<String> schemaTables = model.tables().stream().map(t -> t.name()).toList();
    SqlGuard.Verdict verdict = SqlGuard.check(p.sql(), schemaTables, settings.maxRows());
    if (!verdict.allowed()) {
      ErrorClass c = ErrorClass.VALIDATION_BLOCK;
      List<Attempt> a = List.of(new Attempt(1, hash, sql, lint, Optional.empty(), Optional.of(c), Optional.empty(), "guard",
          Optional.of(verdict.reason()), ms(t0)));
      return new Result(false, sql, List.of(), Optional.empty(), Optional.of(c), "guard", Optional.empty(),
          "the documented query pattern '" + p.name() + "' of " + p.table() + " was refused: " + verdict.reason(), a, SOURCE_PATTERN);
    }
    if (!execute) {
      List<Attempt> a = List.of(new Attempt(1, hash, sql, lint, Optional.empty(), Optional.empty(), Optional.empty(), "guard",
          Optional.empty(), ms(t0)));
      return new Result(true, sql, verdict.tables(), Optional.empty(), Optional.empty(), "guard", Optional.empty(), note, a, SOURCE_PATTERN);
    }
    ReadOnlyExecutor.Outcome o = executor.run(verdict.sql(), schemaTables, settings.maxRows(), settings.previewRows());
    List<Attempt> a = List.of(new Attempt(1, hash, sql, lint, o.plan().or(() -> o.stage().equals("explain") ? o.message() : Optional.empty()),
        o.error(), o.sqlState(), o.stage(), o.message(), ms(t0)));
    if (o.ok()) {
      return new Result(true, sql, verdict.tables(), o.rows(), Optional.empty(), "execute", Optional.empty(), note, a, SOURCE_PATTERN);
    }
    return new Result(false, sql, List.of(), Optional.empty(), o.error(), o.stage(), o.sqlState(),
        "the documented query pattern '" + p.name() + "' of " + p.table() + " failed: " + o.message().orElse(""), a, SOURCE_PATTERN);
  }

  private Map<String, Set<String>> packetColumns(SchemaContextPacket packet) {
    Map<String, Set<String>> out = new HashMap<>();
    for (String t : packet.tableNames()) {
      model.table(t).ifPresent(table -> out.put(t, new LinkedHashSet<>(table.columns().stream().map(Column::name).toList())));
    }
    return out;
  }

  private static long ms(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
