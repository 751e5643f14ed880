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

  /**
   * Shortest FK path (at most 3 hops) between each pair of packet tables that are not adjacent. One
   * breadth-first search per table serves all the tables after it: a search per pair walked the same
   * neighbourhood again for every partner, which around hubs of a large schema is thousands of tables.
   */
  static List<String> paths(SchemaModel model, List<String> tables) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      String a = tables.get(i);
      Set<String> adjacent = model.neighbours(a);
      Set<String> wanted = new HashSet<>();
      for (int j = i + 1; j < tables.size(); j++) {
        if (!adjacent.contains(tables.get(j))) {
          wanted.add(tables.get(j));
        }
      }
      if (wanted.isEmpty()) {
        continue;
      }
      Map<String, ForeignKey> via = reached(model, a, wanted);
      for (int j = i + 1; j < tables.size(); j++) {
        String b = tables.get(j);
        if (wanted.contains(b) && via.containsKey(b)) {
          List<String> conds = path(via, a, b).stream().map(ForeignKey::joinCondition).toList();
          out.add(a + " … " + b + ": " + String.join(" AND ", conds));
        }
      }
    }
    return out;
  }

  /**
   * Breadth-first from {@code from} over FKs both ways, at most {@value #MAX_PATH_HOPS} hops: the
   * key each table was first reached by. A table's entry is set when it is first reached and never
   * changes, so it is what a search for that table alone would give; the search stops once every
   * wanted table is reached. The last ring is only looked at for wanted tables: around a hub of a
   * large schema it holds thousands of tables, none of which is searched from.
   */
  private static Map<String, ForeignKey> reached(SchemaModel model, String from, Set<String> wanted) {
    Map<String, ForeignKey> via = new HashMap<>();
    Map<String, Integer> depth = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    queue.add(from);
    depth.put(from, 0);
    int found = 0;
    while (!queue.isEmpty() && found < wanted.size()) {
      String cur = queue.poll();
      int d = depth.get(cur);
      boolean lastRing = d + 1 == MAX_PATH_HOPS;
      for (List<ForeignKey> side : List.of(model.outgoing(cur), model.incoming(cur))) {
        for (ForeignKey fk : side) {
          String next = fk.other(cur);
          if ((!lastRing || wanted.contains(next)) && !depth.containsKey(next)) {
            depth.put(next, d + 1);
            via.put(next, fk);
            if (!lastRing) {
              queue.add(next);
            }
            if (wanted.contains(next)) {
              found++;
            }
          }
        }
      }
    }
    return via;
  }

  private static List<ForeignKey> path(Map<String, ForeignKey> via, String from, String to) {
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
