package dev.schemarag.core.sql;

import java.util.Locale;

/** Why an answer failed, and whether another attempt can help. */
public enum ErrorClass {
  /**
   * Connection, resources, system errors (08, 53, 54, 58, F0, XX) and a session killed or shut down
   * under the query (57P01, 57P02, 57P03): never retried.
   */
  INFRA_FAILURE(Retry.NEVER),
  /** Statement timeout or cancelled (57014): retried once asking for a simpler query. */
  QUERY_TIMEOUT(Retry.ONCE_SIMPLER),
  /** Privilege errors (42501) and guard rejections: never retried. */
  VALIDATION_BLOCK(Retry.NEVER),
  /** Syntax, unknown table or column, type and grouping errors (42601, 42P01, 42703, 42P09, 42804, 42883, 42803, 22xxx): repaired and retried. */
  SQL_ERROR(Retry.REPAIR),
  /** No model configured and no documented query pattern fits. */
  GENERATOR_UNAVAILABLE(Retry.NEVER),
  /**
   * No table of the database is relevant enough to the question (the relevance gate: no model is asked), or the model,
   * asked, found that the tables offered do not answer it (stage {@code generation}).
   */
  NO_RELEVANT_SCHEMA(Retry.NEVER),
  /** The question names a database no query service answers for: never retried. */
  UNKNOWN_DATABASE(Retry.NEVER),
  /** The principal asking is not mapped to a database role by the access policy: never retried. */
  UNKNOWN_PRINCIPAL(Retry.NEVER),
  /** Anything else: never retried, logged. */
  UNKNOWN(Retry.NEVER);

  /** What a failure of this class allows. */
  public enum Retry { NEVER, ONCE_SIMPLER, REPAIR }

  private final Retry retry;

  ErrorClass(Retry retry) {
    this.retry = retry;
  }

  public Retry retry() {
    return retry;
  }

  /** The name used in events: infra_failure, query_timeout, … */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Classifies a PostgreSQL SQLSTATE. */
  public static ErrorClass ofSqlState(String sqlState) {
    if (sqlState == null || sqlState.length() != 5) {
      return UNKNOWN;
    }
    String s = sqlState.toUpperCase(Locale.ROOT);
    switch (s) {
      case "57014":
        return QUERY_TIMEOUT;
      case "57P01", "57P02", "57P03":
        // The session was terminated (pg_terminate_backend, shutdown): not the query's doing, and a simpler query would not help.
        return INFRA_FAILURE;
      case "42501":
        return VALIDATION_BLOCK;
      case "42601", "42P01", "42703", "42P09", "42804", "42883", "42803":
        return SQL_ERROR;
      default:
        break;
    }
    String klass = s.substring(0, 2);
    return switch (klass) {
      case "08", "53", "54", "58", "F0", "XX" -> INFRA_FAILURE;
      case "22" -> SQL_ERROR;
      // A read-only transaction refusing a write (25006) is the database's own guard.
      case "25" -> s.equals("25006") ? VALIDATION_BLOCK : UNKNOWN;
      default -> UNKNOWN;
    };
  }
}
