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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The second line of defence, from PostgreSQL itself: the plan of {@code EXPLAIN (VERBOSE, FORMAT
 * JSON)} names every relation the statement would read (in InitPlans and SubPlans too, after
 * views are expanded), every function a Function Scan calls, and, in its expressions, every other
 * function call as PostgreSQL resolved it. They must lie within the context packet and the
 * allowlist, and no plan node may write or lock. Pure: the JSON comes in as text.
 *
 * @param relations every relation read, as {@code schema.name}
 * @param functionScans every function called in FROM, as {@code schema.name}
 * @param calls every function called in the plan's expressions, as PostgreSQL prints it ({@code lower}, {@code "char"}, {@code s.f})
 * @param nodeTypes every plan node's type
 * @param summary the top node as text EXPLAIN shows it: {@code Limit  (cost=0.00..1.10 rows=10 width=40)}
 */
public record PlanCheck(List<String> relations, List<String> functionScans, List<String> calls, List<String> nodeTypes,
                        String summary) {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Plan nodes that write or lock: none belongs in an answer. */
  private static final Set<String> WRITING_NODES = Set.of("ModifyTable", "LockRows");
  /** Plan fields that hold names, not expressions. */
  private static final Set<String> NAME_FIELDS = Set.of("Node Type", "Relation Name", "Schema", "Alias", "Index Name",
      "Parent Relationship", "Subplan Name", "Strategy", "Partial Mode", "Join Type", "Scan Direction", "Function Name",
      "CTE Name", "Command", "Operation", "Sort Method", "Sort Space Type", "Custom Plan Provider", "Setop");
  /**
   * A function call in PostgreSQL's deparsed expressions: a lower-case or quoted name, maybe
   * schema-qualified, right before '('. SQL-standard syntax (COALESCE, EXTRACT, SUBSTRING, ANY,
   * FILTER, OVER, …) is printed in upper case and is not a call.
   */
  private static final Pattern CALL = Pattern.compile(
      "(?<![A-Za-z0-9_$\".])((?:(?:\"(?:[^\"]|\"\")+\"|[a-z_][a-z0-9_$]*)\\.)?(?:\"(?:[^\"]|\"\")+\"|[a-z_][a-z0-9_$]*))\\(");

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
    List<String> calls = new ArrayList<>();
    collect(top, relations, functions, types, calls);
    String summary = String.format(Locale.ROOT, "%s  (cost=%.2f..%.2f rows=%d width=%d)", top.path("Node Type").asText(),
        top.path("Startup Cost").asDouble(), top.path("Total Cost").asDouble(), top.path("Plan Rows").asLong(),
        top.path("Plan Width").asLong());
    return new PlanCheck(List.copyOf(relations), List.copyOf(functions), List.copyOf(calls), List.copyOf(types), summary);
  }

  private static void collect(JsonNode node, List<String> relations, List<String> functions, List<String> types,
                              List<String> calls) {
    if (node.isArray()) {
      node.forEach(n -> collect(n, relations, functions, types, calls));
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
        collect(e.getValue(), relations, functions, types, calls);
      }
      if (!NAME_FIELDS.contains(e.getKey())) {
        if (e.getValue().isTextual()) {
          calls.addAll(calls(e.getValue().asText()));
        } else if (e.getValue().isArray()) {
          e.getValue().forEach(v -> {
            if (v.isTextual()) {
              calls.addAll(calls(v.asText()));
            }
          });
        }
      }
    });
  }

  /** The function calls in one deparsed expression: string literals skipped, type modifiers ({@code ::numeric(10,2)}) too. */
  static List<String> calls(String expression) {
    StringBuilder code = new StringBuilder(expression.length());
    boolean inString = false;
    boolean inName = false;
    for (int i = 0; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (c == '\'' && !inName) {
        inString = !inString; // a doubled quote toggles twice
        code.append(' ');
      } else if (c == '"' && !inString) {
        inName = !inName;
        code.append(c);
      } else {
        code.append(inString ? ' ' : c);
      }
    }
    List<String> out = new ArrayList<>();
    Matcher m = CALL.matcher(code);
    while (m.find()) {
      if (!typeModifier(code, m.start())) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  /** Whether the name at {@code start} is a type after {@code ::}: {@code ::numeric(10,2)}, {@code ::character varying(5)}, {@code ::bit varying(3)}. */
  private static boolean typeModifier(CharSequence code, int start) {
    String before = code.subSequence(0, start).toString();
    return before.endsWith("::") || before.endsWith("::character ") || before.endsWith("::bit ");
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
      Optional<String> refused = SqlGuard.tableRefusal(parts, allowed::contains);
      if (refused.isPresent()) {
        return Optional.of("the plan reads " + r + ", outside the context packet: " + refused.get());
      }
    }
    for (String f : calls) {
      Optional<String> refused = BuiltinFunctions.refusal(PgText.qualifiedName(f));
      if (refused.isPresent()) {
        return Optional.of("the plan calls " + f + ": " + refused.get());
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
