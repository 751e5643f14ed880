package dev.schemarag.core.retrieval;

import dev.schemarag.core.schema.SchemaModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Makes a packet joinable: when its tables fall apart into groups with no foreign key between
 * them, adds the fewest bridge tables that connect them, over paths of at most {@link #MAX_HOPS}
 * FK hops. A greedy Steiner-tree approximation: starting from the group of the best table, it
 * repeatedly takes the cheapest path to a group not yet reached, where a bridge costs 1 plus how
 * irrelevant it is (so among equally short paths the more relevant bridge wins), and tables already
 * in the packet cost nothing. Groups no path reaches (another database) stay as they are.
 */
final class JoinConnector {
  private JoinConnector() {}

  static final int MAX_HOPS = 3;

  /**
   * @param packet the packet's tables, best first
   * @param relevance per table, its relevance in 0..1 (missing = 0)
   * @param maxBridges most bridge tables to add
   * @return the bridge tables to add, in the order found
   */
  static List<String> bridges(SchemaModel model, List<String> packet, Map<String, Double> relevance, int maxBridges) {
    if (packet.size() < 2) {
      return List.of();
    }
    Set<String> members = new LinkedHashSet<>(packet);
    List<String> added = new ArrayList<>();
    Set<String> tree = component(model, packet.get(0), members);
    while (added.size() < maxBridges && tree.size() < members.size()) {
      List<String> path = cheapestPath(model, tree, members, relevance);
      if (path.isEmpty()) {
        break;
      }
      List<String> bridge = path.stream().filter(t -> !members.contains(t)).toList();
      if (added.size() + bridge.size() > maxBridges) {
        break;
      }
      added.addAll(bridge);
      members.addAll(bridge);
      tree = component(model, packet.get(0), members);
    }
    return added;
  }

  /** Whether the tables form one group over the FK edges among themselves. */
  static boolean connected(SchemaModel model, List<String> tables) {
    Set<String> members = new HashSet<>(tables);
    return tables.isEmpty() || component(model, tables.get(0), members).size() == members.size();
  }

  /**
   * Whether {@code table} is at most {@code hops} FK hops from one of {@code targets}. The last ring
   * is tested as it is found, not collected: around a hub it holds most of the schema, and a
   * table's neighbours meet the targets when the smaller of the two sets has a member in the other.
   */
  static boolean withinHops(SchemaModel model, String table, Set<String> targets, int hops) {
    Set<String> frontier = Set.of(table);
    Set<String> seen = new HashSet<>(frontier);
    for (int h = 0; h < hops && !frontier.isEmpty(); h++) {
      for (String t : frontier) {
        if (meet(model.neighbours(t), targets)) {
          return true;
        }
      }
      if (h == hops - 1) {
        return false;
      }
      if (h == hops - 2) {
        for (String t : frontier) {
          for (String n : model.neighbours(t)) {
            if (!seen.contains(n) && meet(model.neighbours(n), targets)) {
              return true;
            }
          }
        }
        return false;
      }
      Set<String> next = new HashSet<>();
      for (String t : frontier) {
        for (String n : model.neighbours(t)) {
          if (seen.add(n)) {
            next.add(n);
          }
        }
      }
      frontier = next;
    }
    return false;
  }

  private static boolean meet(Set<String> a, Set<String> b) {
    Set<String> small = a.size() <= b.size() ? a : b;
    Set<String> large = small == a ? b : a;
    for (String x : small) {
      if (large.contains(x)) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> component(SchemaModel model, String start, Set<String> members) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add(start);
    seen.add(start);
    while (!todo.isEmpty()) {
      for (String n : model.neighbours(todo.poll())) {
        if (members.contains(n) && seen.add(n)) {
          todo.add(n);
        }
      }
    }
    return seen;
  }

  private record Step(String table, int hops, double cost, Step previous) {}

  /** The cheapest path from the tree to a packet table outside it, as its tables (both ends included). */
  private static List<String> cheapestPath(SchemaModel model, Set<String> tree, Set<String> members, Map<String, Double> relevance) {
    PriorityQueue<Step> queue = new PriorityQueue<>((a, b) -> a.cost != b.cost ? Double.compare(a.cost, b.cost)
        : a.hops != b.hops ? Integer.compare(a.hops, b.hops) : a.table.compareTo(b.table));
    Map<String, Integer> fewestHops = new HashMap<>();
    // Only a packet table outside the tree ends a path: the last hop takes no other step, and the one
    // before it only a step next to such a table. The same paths, without walking every table three
    // hops around a hub.
    Set<String> targets = new HashSet<>(members);
    targets.removeAll(tree);
    Set<String> nextToTargets = new HashSet<>(targets);
    targets.forEach(t -> nextToTargets.addAll(model.neighbours(t)));
    tree.forEach(t -> queue.add(new Step(t, 0, 0, null)));
    while (!queue.isEmpty()) {
      Step s = queue.poll();
      if (s.previous != null && members.contains(s.table) && !tree.contains(s.table)) {
        List<String> path = new ArrayList<>();
        for (Step x = s; x != null; x = x.previous) {
          path.add(0, x.table);
        }
        return path;
      }
      // A state is worth expanding only if it reached this table in fewer hops than any cheaper one.
      Integer seen = fewestHops.get(s.table);
      if (seen != null && seen <= s.hops) {
        continue;
      }
      fewestHops.put(s.table, s.hops);
      if (s.hops == MAX_HOPS) {
        continue;
      }
      for (String n : model.neighbours(s.table)) {
        int hops = s.hops + 1;
        if (tree.contains(n) || (hops == MAX_HOPS && !targets.contains(n)) || (hops == MAX_HOPS - 1 && !nextToTargets.contains(n))) {
          continue;
        }
        double cost = members.contains(n) ? 0 : 1 + (1 - Math.max(0, Math.min(1, relevance.getOrDefault(n, 0.0))));
        queue.add(new Step(n, hops, s.cost + cost, s));
      }
    }
    return List.of();
  }
}
