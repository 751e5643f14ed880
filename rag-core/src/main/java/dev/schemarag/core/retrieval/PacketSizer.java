package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts the ranking into a packet sized by evidence, not by a fixed k. A module is plausible when
 * its best table is within {@code threshold} of the overall best (at most {@link #MAX_MODULES});
 * within a plausible module, tables within {@code threshold} of the module's best qualify (at most
 * {@link #PER_MODULE}). Qualified tables are taken round-robin across modules, best first, up to
 * {@code topK}, so an ambiguous question keeps the best tables of each candidate module. Slots
 * still free then go to the best table of each further module within {@code threshold +
 * }{@link #LEFTOVER_MARGIN} of the best: a confident module never loses a table to them, but a
 * question whose module was only nearly clear keeps the runner-up in view.
 */
final class PacketSizer {
  private PacketSizer() {}

  static final int MAX_MODULES = 5;
  static final int PER_MODULE = 4;
  /** How much further than the threshold a module may be to take a slot nobody else wanted. */
  static final double LEFTOVER_MARGIN = 0.1;

  static List<TableEvidence> choose(List<TableEvidence> ranked, RetrievalSettings s) {
    double best = ranked.get(0).fused;
    Map<String, List<TableEvidence>> byModule = new LinkedHashMap<>();
    Map<String, Double> moduleBest = new LinkedHashMap<>();
    for (TableEvidence e : ranked) {
      moduleBest.putIfAbsent(e.module, e.fused);
      boolean plausibleModule = moduleBest.get(e.module) >= best - s.threshold()
          && (byModule.containsKey(e.module) || byModule.size() < MAX_MODULES);
      if (plausibleModule && e.fused >= moduleBest.get(e.module) - s.threshold()) {
        List<TableEvidence> l = byModule.computeIfAbsent(e.module, k -> new ArrayList<>());
        if (l.size() < PER_MODULE) {
          l.add(e);
        }
      }
    }
    List<TableEvidence> out = new ArrayList<>();
    for (int i = 0; i < PER_MODULE && out.size() < s.topK(); i++) {
      for (List<TableEvidence> l : byModule.values()) {
        if (i < l.size() && out.size() < s.topK()) {
          out.add(l.get(i));
        }
      }
    }
    if (out.size() < s.topK()) {
      Set<String> present = new HashSet<>();
      out.forEach(e -> present.add(e.module));
      for (TableEvidence e : ranked) {
        if (out.size() >= s.topK() || e.fused < best - s.threshold() - LEFTOVER_MARGIN) {
          break;
        }
        if (present.add(e.module)) {
          out.add(e);
        }
      }
    }
    return out;
  }
}
