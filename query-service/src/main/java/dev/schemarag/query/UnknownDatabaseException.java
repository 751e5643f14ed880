package dev.schemarag.query;

/** A question names a database this query service does not answer for: failed as {@code unknown_database}, not as a guard rejection. */
final class UnknownDatabaseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  UnknownDatabaseException(String message) {
    super(message);
  }
}
