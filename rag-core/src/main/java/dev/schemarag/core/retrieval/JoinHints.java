package dev.schemarag.core.retrieval;

import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** FK edges among packet tables, and join paths between packet tables that no edge links directly. */
final class JoinHints {
  private JoinHints() {}

  static final int MAX_PATH_HOPS = 3;

  static List<ForeignKey> edgesWithin(SchemaModel model, List<String> tables) {
    Set<String> in = new HashSet<>(tables);
    List<ForeignKey> out = new ArrayList<>();
    for (String t : tables) {
      for (ForeignKey fk : model.outgoing(t)) {
        if (in.contains(fk.toTable())) {
          out.add(fk);
        }
      }
    }
    return out;
  }

  /** Shortest FK path (at most 3 hops) between each pair of packet tables that are not adjacent. */
  static List<String> paths(SchemaModel model, List<String> tables) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      for (int j = i + 1; j < tables.size(); j++) {
        String a = tables.get(i);
        String b = tables.get(j);
        if (model.neighbours(a).contains(b)) {
          continue;
        }
        List<ForeignKey> path = shortest(model, a, b);
        if (!path.isEmpty()) {
          List<String> conds = path.stream().map(ForeignKey::joinCondition).toList();
          out.add(a + " … " + b + ": " + String.join(" AND ", conds));
        }
      }
    }
    return out;
  }

  private static List<ForeignKey> shortest(SchemaModel model, String from, String to) {
    Map<String, ForeignKey> via = new HashMap<>();
    Map<String, Integer> depth = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    queue.add(from);
    depth.put(from, 0);
    while (!queue.isEmpty()) {
      String cur = queue.poll();
      if (cur.equals(to)) {
        break;
      }
      if (depth.get(cur) >= MAX_PATH_HOPS) {
        continue;
      }
      for (ForeignKey fk : model.edges(cur)) {
        String next = fk.other(cur);
        if (!depth.containsKey(next)) {
          depth.put(next, depth.get(cur) + 1);
          via.put(next, fk);
          queue.add(next);
        }
      }
    }
    if (!via.containsKey(to)) {
      return List.of();
    }
    List<ForeignKey> path = new ArrayList<>();
    String cur = to;
    while (!cur.equals(from)) {
      ForeignKey fk = via.get(cur);
      path.add(0, fk);
      cur = fk.other(cur);
    }
    return path;
  }
}
