package dev.schemarag.gateway;

import dev.schemarag.events.nlq.QuestionRequested;

/** What the HTTP API and the MCP tools share: settings, the Kafka side and the database directory. */
public record GatewayCore(GatewaySettings settings, QuestionBus bus, DatabaseDirectory databases) {

  /** The event for a checked question: its database resolved (an unknown one never reaches Kafka), its asker named. */
  QuestionRequested request(QuestionInput in, String principal) {
    return in.toEvent(databases.resolve(in.databaseId()), principal);
  }
}
