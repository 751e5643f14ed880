package dev.schemarag.gateway;

import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;

/** What came back for a question: its answer event or its failure event. */
public sealed interface Outcome {

  String queryId();

  record Answered(QueryAnswered event) implements Outcome {
    @Override
    public String queryId() {
      return event.getQueryId();
    }
  }

  record Failed(QueryFailed event) implements Outcome {
    @Override
    public String queryId() {
      return event.getQueryId();
    }
  }
}
