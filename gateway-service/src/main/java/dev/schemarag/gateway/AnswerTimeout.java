package dev.schemarag.gateway;

import java.time.Duration;

/** No answer within the wait: the query goes on, and its answer can be fetched by query_id later. */
public final class AnswerTimeout extends Exception {
  private static final long serialVersionUID = 1L;
  private final String queryId;

  public AnswerTimeout(String queryId, Duration waited) {
    super("no answer for query " + queryId + " within " + waited.toMillis() + " ms; it is still being answered:"
        + " fetch it later with GET /api/v1/questions/" + queryId);
    this.queryId = queryId;
  }

  public String queryId() {
    return queryId;
  }
}
