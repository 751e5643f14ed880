package dev.schemarag.core.answer;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Takes the SQL out of a model's reply: a ```sql block, any ``` block, or the text from the first statement keyword. */
public final class SqlExtractor {
  private SqlExtractor() {}

  private static final Pattern SQL_FENCE = Pattern.compile("```\\s*(?:sql|postgresql|postgres|pgsql)\\s*\\n(.*?)```", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  private static final Pattern ANY_FENCE = Pattern.compile("```[a-zA-Z]*\\s*\\n?(.*?)```", Pattern.DOTALL);
  /** Any statement, not only SELECT: a bare DELETE must reach the guard and be blocked, not be mistaken for prose. */
  private static final Pattern BARE = Pattern.compile(
      "(?is)\\b(SELECT|WITH|INSERT|UPDATE|DELETE|MERGE|DROP|CREATE|ALTER|TRUNCATE|GRANT|REVOKE|COPY|CALL|DO)\\b.*");
  /**
   * A reply that starts with a statement: also the words that read as prose inside a sentence (SET,
   * DO, CALL, SHOW, …), so that {@code SET statement_timeout = 0} reaches the guard and is blocked
   * rather than taken for a reply without SQL and sent back for repair.
   */
  private static final Pattern LEADING = Pattern.compile(
      "(?is)^\\s*(SELECT|WITH|INSERT|UPDATE|DELETE|MERGE|DROP|CREATE|ALTER|TRUNCATE|GRANT|REVOKE|COPY|CALL|DO|SET|RESET|SHOW"
          + "|EXPLAIN|VACUUM|LOCK|LISTEN|NOTIFY|PREPARE|EXECUTE|DECLARE|DISCARD|REFRESH|REINDEX|CLUSTER|BEGIN|COMMIT|ROLLBACK"
          + "|TABLE|VALUES)\\b.*");

  /**
   * How a reply says that the packet's tables cannot answer the question (the prompt's rules ask for it). Without it a
   * model that rightly finds no answer in the tables would be sent back for repair until it wrote SQL anyway.
   */
  public static final String DECLINE = "NO ANSWER:";

  /** The longest reason of a decline kept: the model's text goes into events and logs. */
  static final int MAX_REASON_CHARS = 300;

  private static final Pattern DECLINED = Pattern.compile("(?is)^\\s*(?:[*_`>]+\\s*)?NO ANSWER\\s*:(.*)");

  /**
   * The model's reason when its reply declines the question ({@link #DECLINE} first, before any SQL): one line, at most
   * {@link #MAX_REASON_CHARS} characters. A reply that starts with SQL is not a decline, whatever it says after.
   */
  public static Optional<String> declined(String reply) {
    if (reply == null) {
      return Optional.empty();
    }
    Matcher m = DECLINED.matcher(reply);
    if (!m.find()) {
      return Optional.empty();
    }
    String reason = m.group(1).replaceAll("[*_`]+", "").replaceAll("\\s+", " ").strip();
    if (reason.isEmpty()) {
      reason = "the model gave no reason";
    }
    return Optional.of(reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "…" : reason);
  }

  public static Optional<String> extract(String reply) {
    if (reply == null || reply.isBlank()) {
      return Optional.empty();
    }
    Matcher m = SQL_FENCE.matcher(reply);
    if (m.find()) {
      return clean(m.group(1));
    }
    m = ANY_FENCE.matcher(reply);
    if (m.find()) {
      return clean(m.group(1));
    }
    m = LEADING.matcher(reply);
    if (m.find() || (m = BARE.matcher(reply)).find()) {
      String sql = m.group();
      // Prose after the statement: cut at the first blank line.
      int blank = sql.indexOf("\n\n");
      return clean(blank > 0 ? sql.substring(0, blank) : sql);
    }
    return Optional.empty();
  }

  private static Optional<String> clean(String sql) {
    String s = sql.strip();
    return s.isEmpty() ? Optional.empty() : Optional.of(s);
  }
}
