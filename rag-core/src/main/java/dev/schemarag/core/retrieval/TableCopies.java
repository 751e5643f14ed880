package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Copies of one table in several schemas (a region's, a subsidiary's, a tenant's: one name, columns
 * that grew apart) match a question alike, so a few dozen copies could fill every place the selector
 * judges and push out a table of another kind that the question needs. The ranking keeps the best
 * {@link #KEPT} tables of each name (without its schema) where they are and moves the others behind
 * every other candidate, in their order; they stay candidates.
 */
final class TableCopies {

  /** Tables of one name kept in place. */
  static final int KEPT = 2;

  private TableCopies() {}

  /** How many of these tables bear each name (without the schema). */
  static Map<String, Integer> namesIn(Iterable<String> tables) {
    Map<String, Integer> out = new HashMap<>();
    tables.forEach(t -> out.merge(name(t), 1, Integer::sum));
    return out;
  }

  /** Whether {@code table} can join tables whose names {@code ofName} counts (fewer than {@link #KEPT} of its name); counts it if so. */
  static boolean admit(Map<String, Integer> ofName, String table) {
    String name = name(table);
    if (ofName.getOrDefault(name, 0) >= KEPT) {
      return false;
    }
    ofName.merge(name, 1, Integer::sum);
    return true;
  }

  private static String name(String table) {
    return table.substring(table.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
  }

  /** The ranking with the tables after the first {@link #KEPT} of each name moved to its end; the ranking itself when none is. */
  static List<TableEvidence> fewFirst(List<TableEvidence> ranked) {
    Map<String, Integer> seen = new HashMap<>();
    return TableEvidence.movedToEnd(ranked, e -> !admit(seen, e.table));
  }

  /** How many times its limit a search asks for when the schema holds copies (see {@link #fewOfEachName}). */
  static final int COPIES_OVERFETCH = 3;

  /**
   * The first {@code limit} hits, in order, that are among the first {@link #KEPT} of their table's name;
   * the other copies are left out. A search asks for more than its limit and cuts here, so that a few
   * dozen copies cannot fill the limit and leave out the one table of another name the question needs
   * (at 10,000 tables, a lexical top 60 of 7 names). The copies left out would rank behind every other
   * candidate anyway ({@link #fewFirst}).
   */
  static <H> List<H> fewOfEachName(List<H> hits, int limit, Function<H, String> table) {
    Map<String, Integer> seen = new HashMap<>();
    List<H> out = new ArrayList<>(Math.min(hits.size(), limit));
    for (H h : hits) {
      if (out.size() == limit) {
        break;
      }
      if (admit(seen, table.apply(h))) {
        out.add(h);
      }
    }
    return out;
  }
}
