package dev.schemarag.core.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The second line of defence, from PostgreSQL itself: the plan of {@code EXPLAIN (VERBOSE, FORMAT
 * JSON)} names every relation the statement would read (in InitPlans and SubPlans too, after
 * views and functions are resolved) and every function a Function Scan calls. They must lie
 * within the context packet and the allowlist, and no plan node may write or lock. Pure: the JSON
 * comes in as text.
 *
 * @param relations every relation read, as {@code schema.name}
 * @param functionScans every function called in FROM, as {@code schema.name}
 * @param nodeTypes every plan node's type
 * @param summary the top node as text EXPLAIN shows it: {@code Limit  (cost=0.00..1.10 rows=10 width=40)}
 */
public record PlanCheck(List<String> relations, List<String> functionScans, List<String> nodeTypes, String summary) {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Plan nodes that write or lock: none belongs in an answer. */
  private static final Set<String> WRITING_NODES = Set.of("ModifyTable", "LockRows");

  /** Reads the JSON that {@code EXPLAIN (VERBOSE, FORMAT JSON)} returns. */
  public static PlanCheck parse(String explainJson) {
    JsonNode root;
    try {
      root = JSON.readTree(explainJson);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not an EXPLAIN (FORMAT JSON) plan: " + e.getOriginalMessage(), e);
    }
    JsonNode top = root.isArray() && !root.isEmpty() ? root.get(0).path("Plan") : root.path("Plan");
    if (!top.isObject()) {
      throw new IllegalArgumentException("not an EXPLAIN (FORMAT JSON) plan: no \"Plan\" object");
    }
    List<String> relations = new ArrayList<>();
    List<String> functions = new ArrayList<>();
    List<String> types = new ArrayList<>();
    collect(top, relations, functions, types);
    String summary = String.format(Locale.ROOT, "%s  (cost=%.2f..%.2f rows=%d width=%d)", top.path("Node Type").asText(),
        top.path("Startup Cost").asDouble(), top.path("Total Cost").asDouble(), top.path("Plan Rows").asLong(),
        top.path("Plan Width").asLong());
    return new PlanCheck(List.copyOf(relations), List.copyOf(functions), List.copyOf(types), summary);
  }

  private static void collect(JsonNode node, List<String> relations, List<String> functions, List<String> types) {
    if (node.isArray()) {
      node.forEach(n -> collect(n, relations, functions, types));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    if (node.has("Node Type")) {
      types.add(node.get("Node Type").asText());
    }
    String schema = node.path("Schema").asText("");
    if (node.has("Relation Name")) {
      relations.add(qualified(schema, node.get("Relation Name").asText()));
    }
    if (node.has("Function Name")) {
      functions.add(qualified(schema, node.get("Function Name").asText()));
    }
    // "Plans" holds the children, InitPlans and SubPlans included; other fields hold no nodes but are cheap to look at.
    node.fields().forEachRemaining(e -> {
      if (e.getValue().isContainerNode()) {
        collect(e.getValue(), relations, functions, types);
      }
    });
  }

  private static String qualified(String schema, String name) {
    return schema.isEmpty() ? name : schema + "." + name;
  }

  /**
   * Why this plan must not run, or empty when it may.
   *
   * @param allowedTables the packet's tables (names as the model keys them; {@code public.} optional)
   */
  public Optional<String> refusal(Collection<String> allowedTables) {
    for (String t : nodeTypes) {
      if (WRITING_NODES.contains(t)) {
        return Optional.of("the plan holds a " + t + " node: the statement writes or locks");
      }
    }
    Set<String> allowed = new HashSet<>();
    allowedTables.forEach(t -> allowed.add(SqlGuard.normalize(t)));
    for (String r : relations) {
      List<String> parts = List.of(r.split("\\.", 2));
      Optional<String> refused = SqlGuard.tableRefusal(parts, allowed);
      if (refused.isPresent()) {
        return Optional.of("the plan reads " + r + ", outside the context packet: " + refused.get());
      }
    }
    for (String f : functionScans) {
      Optional<String> refused = BuiltinFunctions.refusal(List.of(f.split("\\.", 2)));
      if (refused.isPresent()) {
        return Optional.of("the plan calls " + f + ": " + refused.get());
      }
    }
    return Optional.empty();
  }
}
