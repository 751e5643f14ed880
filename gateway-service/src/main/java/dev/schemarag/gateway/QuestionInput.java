package dev.schemarag.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemarag.events.nlq.QuestionOptions;
import dev.schemarag.events.nlq.QuestionRequested;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A question as a client sends it (HTTP body or MCP tool arguments), checked before anything is
 * published: every problem is named, and nothing malformed reaches a topic.
 */
public record QuestionInput(String question, Optional<String> databaseId, Optional<Integer> topK, Optional<Integer> maxRows,
                            boolean execute, boolean groundingOnly) {

  static final Set<String> FIELDS = Set.of("question", "database_id", "top_k", "max_rows", "execute");
  static final int MAX_TOP_K = 50;
  static final int MAX_ROWS = 10_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Parses and checks a JSON body. */
  public static QuestionInput fromJson(String body, int maxChars, boolean groundingOnly) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw invalid("malformed-json", "Malformed JSON", "the body is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw invalid("malformed-json", "Malformed JSON", "the body must be a JSON object like {\"question\": \"...\"}");
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f) || groundingOnly && (f.equals("max_rows") || f.equals("execute"))) {
        throw invalid("invalid-field", "Unknown field", "unknown field '" + f + "'; allowed: "
            + (groundingOnly ? "question, database_id, top_k" : "question, database_id, top_k, max_rows, execute"));
      }
    }
    JsonNode q = root.get("question");
    if (q == null || q.isNull()) {
      throw invalid("missing-field", "Missing field", "the field 'question' is required");
    }
    if (!q.isTextual()) {
      throw invalid("invalid-field", "Invalid field", "'question' must be a string");
    }
    Optional<String> db = Optional.empty();
    JsonNode d = root.get("database_id");
    if (d != null && !d.isNull()) {
      if (!d.isTextual()) {
        throw invalid("invalid-field", "Invalid field", "'database_id' must be a string");
      }
      db = Optional.of(d.asText());
    }
    Optional<Integer> topK = intField(root, "top_k");
    Optional<Integer> maxRows = intField(root, "max_rows");
    boolean execute = true;
    JsonNode e = root.get("execute");
    if (e != null && !e.isNull()) {
      if (!e.isBoolean()) {
        throw invalid("invalid-field", "Invalid field", "'execute' must be true or false");
      }
      execute = e.asBoolean();
    }
    return of(q.asText(), db, topK, maxRows, execute, groundingOnly, maxChars);
  }

  /** Checks values however they arrived (JSON body or MCP arguments). */
  public static QuestionInput of(String question, Optional<String> databaseId, Optional<Integer> topK, Optional<Integer> maxRows,
                                 boolean execute, boolean groundingOnly, int maxChars) {
    if (question == null || question.isBlank()) {
      throw invalid("empty-question", "Empty question", "the question is empty");
    }
    String trimmed = question.strip();
    if (trimmed.length() > maxChars) {
      throw invalid("question-too-long", "Question too long",
          "the question has " + trimmed.length() + " characters; at most " + maxChars + " are accepted (question.max.chars)");
    }
    if (databaseId.isPresent() && !databaseId.get().matches("[A-Za-z0-9_.\\-]{1,128}")) {
      throw invalid("invalid-field", "Invalid field", "'database_id' must be 1 to 128 letters, digits, '_', '.' or '-'");
    }
    if (topK.isPresent() && (topK.get() < 1 || topK.get() > MAX_TOP_K)) {
      throw invalid("invalid-field", "Invalid field", "'top_k' must be between 1 and " + MAX_TOP_K + ", was " + topK.get());
    }
    if (maxRows.isPresent() && (maxRows.get() < 1 || maxRows.get() > MAX_ROWS)) {
      throw invalid("invalid-field", "Invalid field", "'max_rows' must be between 1 and " + MAX_ROWS + ", was " + maxRows.get());
    }
    return new QuestionInput(trimmed, databaseId, topK, maxRows, execute, groundingOnly);
  }

  /** Reads optional arguments of an MCP tool call, with the same checks. */
  public static QuestionInput fromArguments(Map<String, Object> args, int maxChars, boolean groundingOnly) {
    Object q = args.get("question");
    if (q == null) {
      throw invalid("missing-field", "Missing argument", "the argument 'question' is required");
    }
    if (!(q instanceof String s)) {
      throw invalid("invalid-field", "Invalid argument", "'question' must be a string");
    }
    Optional<String> db = Optional.ofNullable(args.get("database_id")).map(Object::toString);
    Boolean execute = args.get("execute") instanceof Boolean b ? b : Boolean.TRUE;
    return of(s, db, intArg(args, "top_k"), intArg(args, "max_rows"), execute, groundingOnly, maxChars);
  }

  /**
   * The event to publish, for the named principal against the given database.
   *
   * @param principal {@code name} or {@code name/group/group} as a token names it (see gateway.tokens); null = the
   *     query service's default principal
   */
  public QuestionRequested toEvent(String database, String principal) {
    List<String> parts = principal == null ? List.of() : List.of(principal.split("/"));
    return QuestionRequested.newBuilder().setQueryId(UUID.randomUUID().toString()).setDatabaseId(database).setQuestion(question)
        .setOptions(QuestionOptions.newBuilder().setTopK(topK.orElse(null)).setMaxRows(maxRows.orElse(null))
            .setExecute(execute && !groundingOnly).setGroundingOnly(groundingOnly).build())
        .setRequestedBy(parts.isEmpty() ? null : parts.get(0))
        .setRequestedByGroups(parts.size() > 1 ? parts.subList(1, parts.size()) : List.of())
        .setRequestedAtMs(System.currentTimeMillis()).build();
  }

  private static Optional<Integer> intField(JsonNode root, String name) {
    JsonNode n = root.get(name);
    if (n == null || n.isNull()) {
      return Optional.empty();
    }
    if (!n.isInt()) {
      throw invalid("invalid-field", "Invalid field", "'" + name + "' must be an integer");
    }
    return Optional.of(n.asInt());
  }

  private static Optional<Integer> intArg(Map<String, Object> args, String name) {
    Object v = args.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && Math.abs(n.doubleValue()) < Integer.MAX_VALUE) {
      return Optional.of(n.intValue());
    }
    throw invalid("invalid-field", "Invalid argument", "'" + name + "' must be an integer");
  }

  static Problem.Raised invalid(String kind, String title, String detail) {
    return Problem.of(400, kind, title, detail).raise();
  }
}
