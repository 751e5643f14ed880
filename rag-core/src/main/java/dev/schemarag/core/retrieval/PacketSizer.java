package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts the ranking into a packet sized by the evidence, not filled to a fixed k.
 *
 * <ul>
 *   <li>The leading module (the best table's) gives its tables within {@code threshold} of its best,
 *       at most {@code topK}: one clear table gives a packet of one, a flat ranking a wider one.
 *   <li>Every further module whose best table is within {@code threshold} of the overall best (at
 *       most {@link #MAX_MODULES} modules in all) gives its best table, so that a question whose
 *       module is ambiguous keeps the runner-up in view.
 *   <li>The ranking's first {@link #GLOBAL_PREFIX} tables are always in: the packet never holds
 *       fewer of the ranker's best tables than its size allows.
 * </ul>
 */
final class PacketSizer {
  private PacketSizer() {}

  static final int MAX_MODULES = 5;
  /** The ranking's leading tables a packet always holds (when they pass the relevance gate). */
  static final int GLOBAL_PREFIX = 2;

  static List<TableEvidence> choose(List<TableEvidence> ranked, RetrievalSettings s) {
    if (ranked.isEmpty()) {
      return List.of();
    }
    double best = ranked.get(0).fused;
    Map<String, List<TableEvidence>> byModule = new LinkedHashMap<>();
    for (TableEvidence e : ranked) {
      byModule.computeIfAbsent(e.module, k -> new ArrayList<>()).add(e);
    }
    Set<TableEvidence> out = new LinkedHashSet<>();
    for (int i = 0; i < Math.min(GLOBAL_PREFIX, ranked.size()); i++) {
      out.add(ranked.get(i));
    }
    int module = 0;
    for (List<TableEvidence> tables : byModule.values()) {
      double moduleBest = tables.get(0).fused;
      if (module >= MAX_MODULES || moduleBest < best - s.threshold()) {
        break;
      }
      if (module == 0) {
        for (int i = 0; i < tables.size() && i < s.topK() && tables.get(i).fused >= moduleBest - s.threshold(); i++) {
          out.add(tables.get(i));
        }
      } else {
        out.add(tables.get(0));
      }
      module++;
    }
    return new ArrayList<>(out);
  }
}
