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
 * Adds direct FK neighbours (both directions) of the packet's non-hub tables when their own relevance
 * earns it: within {@link #GATE} of their module's best table. A hub (at least {@code hubDegree}
 * FK edges, e.g. employees or customers) must be as relevant as a retrieved table, so that
 * expansion does not pull it into every packet. At most {@code fkCap} tables are added, the most
 * relevant first. Bridges that make the packet joinable are {@link JoinConnector}'s.
 */
final class FkExpansion {
  private FkExpansion() {}

  record Outcome(List<TableEvidence> added, int blocked) {}

  static final double GATE = 0.5;

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
      // A hub's neighbours are most of its module: what the question needs of them, it names or retrieves.
      if (model.neighbours(e.table).size() >= s.hubDegree()) {
        continue;
      }
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
    return new Outcome(admitted, blocked);
  }
}
