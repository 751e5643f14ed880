package dev.schemarag.core.retrieval;

import dev.schemarag.core.schema.SchemaModel;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The yardstick of the FK-graph tests: hops over FKs both ways, by a plain search of the whole graph. */
final class FkDistances {
  private FkDistances() {}

  /** Hops from {@code from} to every table it reaches (itself at 0). */
  static Map<String, Integer> from(SchemaModel model, String from) {
    Map<String, Integer> depth = new HashMap<>(Map.of(from, 0));
    ArrayDeque<String> queue = new ArrayDeque<>(List.of(from));
    while (!queue.isEmpty()) {
      String cur = queue.poll();
      for (String next : model.neighbours(cur)) {
        if (depth.putIfAbsent(next, depth.get(cur) + 1) == null) {
          queue.add(next);
        }
      }
    }
    return depth;
  }
}
