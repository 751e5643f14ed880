package dev.schemarag.core.retrieval;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.pcollections.HashTreePMap;
import org.pcollections.OrderedPSet;
import org.pcollections.PMap;
import org.pcollections.PSet;

/**
 * Copies of one table in several schemas (a region's, a subsidiary's, a tenant's: one name, columns
 * that grew apart) match a question alike, so a few dozen copies could fill every place the selector
 * judges and push out a table of another kind that the question needs. The ranking keeps the best
 * {@link #KEPT} tables of each group of copies where they are and moves the others behind every other
 * candidate, in their order; they stay candidates.
 *
 * <p>Tables are copies when they bear one name (without the schema) and share at least half the
 * columns of the smaller, or are both copies of a third. One name alone is not enough: schemas that
 * hold different things name their tables alike ({@code city} of a census, of a map, of a film
 * rental shop), and each may be the one a question needs.
 */
final class TableCopies {

  /** Tables of one group of copies kept in place. */
  static final int KEPT = 2;

  /** The share of the smaller table's column names that two tables of one name hold alike to be copies. */
  static final double SHARED_COLUMNS = 0.5;

  /** How many times its limit a search asks for when the schema holds copies (see {@link #fewOfEach}). */
  static final int COPIES_OVERFETCH = 3;

  /** The tables of each name (lower-cased, without the schema), in the order they came. */
  private final PMap<String, PSet<String>> ofName;
  /** Each table that has more than {@link #KEPT} copies (itself included), to its group's key; any other table is a group of its own. */
  private final PMap<String, String> groupOf;

  private TableCopies(PMap<String, PSet<String>> ofName, PMap<String, String> groupOf) {
    this.ofName = ofName;
    this.groupOf = groupOf;
  }

  /** The groups of copies among the model's tables: those of one name, grouped by the columns they share, in the model's order. */
  static TableCopies of(SchemaModel model) {
    Map<String, PSet<String>> ofName = new HashMap<>();
    for (Table t : model.tables()) {
      ofName.merge(name(t.name()), OrderedPSet.singleton(t.name()), (a, b) -> a.plusAll(b));
    }
    PMap<String, String> groupOf = HashTreePMap.empty();
    for (Map.Entry<String, PSet<String>> named : ofName.entrySet()) {
      groupOf = regrouped(groupOf, named.getKey(), named.getValue(), model);
    }
    return new TableCopies(HashTreePMap.from(ofName), groupOf);
  }

  /**
   * These groups once {@code changed} tables are as {@code next} has them (gone where it has none): only
   * the names of the changed tables are grouped anew. A table keeps its place among those of its name.
   */
  TableCopies with(SchemaModel next, Collection<String> changed) {
    PMap<String, PSet<String>> nextOfName = ofName;
    Set<String> names = new LinkedHashSet<>();
    for (String table : changed) {
      String name = name(table);
      names.add(name);
      PSet<String> tables = nextOfName.getOrDefault(name, OrderedPSet.empty());
      tables = next.table(table).isPresent() ? tables.plus(table) : tables.minus(table);
      nextOfName = tables.isEmpty() ? nextOfName.minus(name) : nextOfName.plus(name, tables);
    }
    PMap<String, String> nextGroupOf = groupOf;
    for (String name : names) {
      nextGroupOf = nextGroupOf.minusAll(ofName.getOrDefault(name, OrderedPSet.empty()));
      nextGroupOf = regrouped(nextGroupOf, name, nextOfName.getOrDefault(name, OrderedPSet.empty()), next);
    }
    return new TableCopies(nextOfName, nextGroupOf);
  }

  /**
   * {@code groupOf} with the groups of the tables of one name added. A table is a copy of every table
   * it shares enough columns with, and a group holds the tables so linked, directly or through other
   * copies: copies grow apart from one another, and one told only by the group's first table can stay
   * out of its group (at 10,000 tables, two of 27 regional copies of {@code meetings} shared four of
   * nine columns with the first, each made a group of its own, and four copies filled a packet).
   */
  private static PMap<String, String> regrouped(PMap<String, String> groupOf, String name, PSet<String> tables, SchemaModel model) {
    if (tables.size() <= KEPT) {
      return groupOf;
    }
    List<String> order = List.copyOf(tables);
    List<Set<String>> columns = order.stream().map(t -> model.table(t).map(TableCopies::columnNames).orElse(Set.<String>of())).toList();
    int[] root = new int[order.size()];
    for (int i = 0; i < root.length; i++) {
      root[i] = i;
    }
    for (int j = 1; j < root.length; j++) {
      // A table without columns has nothing but the name to tell it by: it joins the first table's group and links no other.
      if (columns.get(j).isEmpty()) {
        union(root, 0, j);
        continue;
      }
      for (int i = 0; i < j; i++) {
        if (!columns.get(i).isEmpty() && copies(columns.get(i), columns.get(j))) {
          union(root, i, j);
        }
      }
    }
    // Each group keyed by its place among the groups, in the order of their first tables: the order decides, not chance.
    Map<Integer, List<String>> groups = new java.util.LinkedHashMap<>();
    for (int i = 0; i < root.length; i++) {
      groups.computeIfAbsent(find(root, i), r -> new ArrayList<>()).add(order.get(i));
    }
    Map<String, String> added = new HashMap<>();
    int g = 0;
    for (List<String> group : groups.values()) {
      if (group.size() > KEPT) {
        String key = name + "#" + g;
        group.forEach(t -> added.put(t, key));
      }
      g++;
    }
    return groupOf.plusAll(added);
  }

  /** The group of table {@code i}: the first table of it, in order. */
  private static int find(int[] root, int i) {
    while (root[i] != i) {
      root[i] = root[root[i]];
      i = root[i];
    }
    return i;
  }

  /** Joins the groups of tables {@code i} and {@code j}; the one with the earlier first table keys it. */
  private static void union(int[] root, int i, int j) {
    int a = find(root, i);
    int b = find(root, j);
    if (a != b) {
      root[Math.max(a, b)] = Math.min(a, b);
    }
  }

  /** Whether some group holds more than {@link #KEPT} copies, so that limiting them can change a ranking. */
  boolean any() {
    return !groupOf.isEmpty();
  }

  private String group(String table) {
    return groupOf.getOrDefault(table, table);
  }

  /** How many of these tables each group counts. */
  Map<String, Integer> countIn(Iterable<String> tables) {
    Map<String, Integer> out = new HashMap<>();
    tables.forEach(t -> out.merge(group(t), 1, Integer::sum));
    return out;
  }

  /** Whether {@code table} can join the tables {@code ofGroup} counts (fewer than {@link #KEPT} of its copies); counts it if so. */
  boolean admit(Map<String, Integer> ofGroup, String table) {
    String group = group(table);
    if (ofGroup.getOrDefault(group, 0) >= KEPT) {
      return false;
    }
    ofGroup.merge(group, 1, Integer::sum);
    return true;
  }

  /** The ranking with the tables after the first {@link #KEPT} of each group moved to its end; the ranking itself when none is. */
  List<TableEvidence> fewFirst(List<TableEvidence> ranked) {
    if (!any()) {
      return ranked;
    }
    Map<String, Integer> seen = new HashMap<>();
    return TableEvidence.movedToEnd(ranked, e -> !admit(seen, e.table));
  }

  /**
   * The first {@code limit} hits, in order, that are among the first {@link #KEPT} of their group; the
   * other copies are left out. A search asks for more than its limit and cuts here, so that a few dozen
   * copies cannot fill the limit and leave out the one table of another name the question needs (at
   * 10,000 tables, a lexical top 60 of 7 names). The copies left out would rank behind every other
   * candidate anyway ({@link #fewFirst}).
   */
  <H> List<H> fewOfEach(List<H> hits, int limit, Function<H, String> table) {
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

  /** Whether two tables of one name, both with columns, share enough of them to be copies. */
  private static boolean copies(Set<String> a, Set<String> b) {
    Set<String> smaller = a.size() <= b.size() ? a : b;
    Set<String> larger = smaller == a ? b : a;
    long shared = smaller.stream().filter(larger::contains).count();
    return shared >= SHARED_COLUMNS * smaller.size();
  }

  private static Set<String> columnNames(Table t) {
    Set<String> out = new HashSet<>();
    for (Column c : t.columns()) {
      out.add(c.name().toLowerCase(Locale.ROOT));
    }
    return out;
  }

  private static String name(String table) {
    return table.substring(table.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
  }
}
