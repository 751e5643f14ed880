package dev.schemarag.core.retrieval;

import dev.schemarag.core.schema.SchemaModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adds direct FK neighbours (both directions) of the packet's tables when their own relevance
 * earns it: within {@link #GATE} of their module's best table. A hub (at least {@code hubDegree}
 * FK edges, e.g. employees or customers) must be as relevant as a retrieved table, so that
 * expansion does not pull it into every packet. At most {@code fkCap} tables are added, the most
 * relevant first. Then one bridge: when two packet tables of one module have no FK between them
 * but share a neighbour, that neighbour joins them (a link table such as order_items between
 * orders and products), whatever its own evidence.
 */
final class FkExpansion {
  private FkExpansion() {}

  record Outcome(List<TableEvidence> added, int blocked) {}

  static final double GATE = 0.8;
  /** Bridge tables added at most per packet. */
  static final int BRIDGES = 1;

  static Outcome expand(SchemaModel model, List<TableEvidence> chosen, List<TableEvidence> ranked, RetrievalSettings s) {
    Map<String, TableEvidence> byName = new HashMap<>();
    Map<String, Double> moduleBest = new HashMap<>();
    for (TableEvidence e : ranked) {
      byName.put(e.table, e);
      moduleBest.putIfAbsent(e.module, e.fused);
    }
    Set<String> packet = new HashSet<>();
    chosen.forEach(e -> packet.add(e.table));
    Set<String> candidates = new LinkedHashSet<>();
    for (TableEvidence e : chosen) {
      for (String n : model.neighbours(e.table)) {
        if (!packet.contains(n)) {
          candidates.add(n);
        }
      }
    }
    List<TableEvidence> admitted = new ArrayList<>();
    int blocked = 0;
    for (String n : candidates) {
      TableEvidence e = byName.get(n);
      boolean hub = model.neighbours(n).size() >= s.hubDegree();
      double gate = hub ? s.threshold() : GATE;
      if (e == null || e.fused < moduleBest.get(e.module) - gate) {
        blocked++;
      } else {
        admitted.add(e);
      }
    }
    admitted.sort((a, b) -> Double.compare(b.fused, a.fused));
    if (admitted.size() > s.fkCap()) {
      blocked += admitted.size() - s.fkCap();
      admitted = new ArrayList<>(admitted.subList(0, s.fkCap()));
    }
    admitted.forEach(e -> packet.add(e.table));
    admitted.addAll(bridges(model, chosen, admitted, packet, byName));
    return new Outcome(admitted, blocked);
  }

  private static List<TableEvidence> bridges(SchemaModel model, List<TableEvidence> chosen, List<TableEvidence> admitted,
                                             Set<String> packet, Map<String, TableEvidence> byName) {
    List<TableEvidence> members = new ArrayList<>(chosen);
    members.addAll(admitted);
    List<TableEvidence> out = new ArrayList<>();
    for (int i = 0; i < members.size() && out.size() < BRIDGES; i++) {
      for (int j = i + 1; j < members.size() && out.size() < BRIDGES; j++) {
        TableEvidence a = members.get(i);
        TableEvidence b = members.get(j);
        if (!a.module.equals(b.module) || model.neighbours(a.table).contains(b.table)) {
          continue;
        }
        Set<String> common = new LinkedHashSet<>(model.neighbours(a.table));
        common.retainAll(model.neighbours(b.table));
        common.removeAll(packet);
        common.stream()
            .map(n -> byName.getOrDefault(n, new TableEvidence(n)))
            .max((x, y) -> Double.compare(x.fused, y.fused))
            .ifPresent(bridge -> {
              out.add(bridge);
              packet.add(bridge.table);
            });
      }
    }
    return out;
  }
}
