package dev.schemarag.core.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pcollections.HashTreePMap;
import org.pcollections.OrderedPMap;
import org.pcollections.PMap;

/**
 * The tables of one database with their foreign keys, navigable in both directions. Immutable; a
 * changed copy ({@link #withTables}) shares every entry it does not change (persistent maps), so a
 * change costs what its tables cost, not the schema's size.
 */
public final class SchemaModel {

  private final String databaseId;
  /**
   * In the order tables came in; a replaced table keeps its place, a new one comes last. Asked with
   * {@code get} only: this map's {@code containsKey} is a scan.
   */
  private final PMap<String, Table> tables;
  private final PMap<String, List<ForeignKey>> outgoing;
  private final PMap<String, List<ForeignKey>> incoming;
  /** Every key in the catalog's order: built when first asked for (a model patched table by table rarely is). */
  private volatile List<ForeignKey> foreignKeys;
  /**
   * Each table's neighbours, built when first asked for: a question walks the FK graph several
   * times (selector features, named tables, join bridges), and a hub has thousands of keys.
   */
  private final java.util.concurrent.atomic.AtomicReference<PMap<String, Set<String>>> neighbourSets =
      new java.util.concurrent.atomic.AtomicReference<>(HashTreePMap.empty());

  /** The order foreign keys are kept in: the catalog's (constraint name, then table). */
  private static final Comparator<ForeignKey> CATALOG_ORDER = Comparator.comparing(ForeignKey::name,
      Comparator.nullsFirst(Comparator.<String>naturalOrder())).thenComparing(ForeignKey::fromTable);

  public SchemaModel(String databaseId, Collection<Table> tables, Collection<ForeignKey> foreignKeys) {
    this.databaseId = databaseId;
    PMap<String, Table> byName = OrderedPMap.empty();
    for (Table t : tables) {
      byName = byName.plus(t.name(), t);
    }
    this.tables = byName;
    // Keep only keys whose both ends are in the model: a dangling FK cannot be joined. In one order
    // (the catalog's: constraint name, then table) whatever order they came in, so that a model
    // patched table by table gives the same relationship chunks as one read whole.
    List<ForeignKey> kept = new ArrayList<>();
    for (ForeignKey fk : foreignKeys) {
      if (byName.get(fk.fromTable()) != null && byName.get(fk.toTable()) != null) {
        kept.add(fk);
      }
    }
    kept.sort(CATALOG_ORDER);
    this.foreignKeys = List.copyOf(kept);
    Map<String, List<ForeignKey>> out = new HashMap<>();
    Map<String, List<ForeignKey>> in = new HashMap<>();
    for (ForeignKey fk : this.foreignKeys) {
      out.computeIfAbsent(fk.fromTable(), k -> new ArrayList<>()).add(fk);
      in.computeIfAbsent(fk.toTable(), k -> new ArrayList<>()).add(fk);
    }
    this.outgoing = frozen(out);
    this.incoming = frozen(in);
  }

  private static PMap<String, List<ForeignKey>> frozen(Map<String, List<ForeignKey>> lists) {
    PMap<String, List<ForeignKey>> out = HashTreePMap.empty();
    for (Map.Entry<String, List<ForeignKey>> e : lists.entrySet()) {
      out = out.plus(e.getKey(), List.copyOf(e.getValue()));
    }
    return out;
  }

  public String databaseId() {
    return databaseId;
  }

  public Collection<Table> tables() {
    return Collections.unmodifiableCollection(tables.values());
  }

  public Optional<Table> table(String name) {
    return Optional.ofNullable(tables.get(name));
  }

  public int size() {
    return tables.size();
  }

  public List<ForeignKey> foreignKeys() {
    List<ForeignKey> all = foreignKeys;
    if (all == null) {
      List<ForeignKey> collected = new ArrayList<>();
      outgoing.values().forEach(collected::addAll);
      collected.sort(CATALOG_ORDER);
      all = List.copyOf(collected);
      foreignKeys = all;
    }
    return all;
  }

  public List<ForeignKey> outgoing(String table) {
    return outgoing.getOrDefault(table, List.of());
  }

  public List<ForeignKey> incoming(String table) {
    return incoming.getOrDefault(table, List.of());
  }

  /** Every FK touching the table, both directions. */
  public List<ForeignKey> edges(String table) {
    List<ForeignKey> all = new ArrayList<>(outgoing(table));
    all.addAll(incoming(table));
    return all;
  }

  /** Direct neighbours over FKs in both directions, self-references excluded; outgoing first, in key order. Unmodifiable. */
  public Set<String> neighbours(String table) {
    Set<String> known = neighbourSets.get().get(table);
    if (known != null) {
      return known;
    }
    Set<String> n = new LinkedHashSet<>();
    for (ForeignKey fk : edges(table)) {
      String other = fk.other(table);
      if (!other.equals(table)) {
        n.add(other);
      }
    }
    Set<String> found = Collections.unmodifiableSet(n);
    neighbourSets.updateAndGet(m -> m.containsKey(table) ? m : m.plus(table, found));
    return found;
  }

  /**
   * A copy with several tables replaced, added (present) or removed (empty), and every foreign key
   * touching one of them, in either direction, replaced by {@code edges}: as the catalog now
   * describes those tables. Kept tables keep their order, new ones come after; keys are in the
   * catalog's order, as a model read whole has them.
   */
  public SchemaModel withTables(Map<String, Optional<Table>> changed, Collection<ForeignKey> edges) {
    PMap<String, Table> next = tables;
    for (Map.Entry<String, Optional<Table>> e : changed.entrySet()) {
      String name = e.getKey();
      Optional<Table> table = e.getValue();
      if (table.isPresent()) {
        if (!table.get().name().equals(name)) {
          throw new IllegalArgumentException("table " + table.get().name() + " given as " + name);
        }
        next = next.plus(name, table.get());
      } else {
        next = next.minus(name);
      }
    }
    // Only the key lists of the tables the old and the new keys touch are rebuilt: the others are shared.
    Set<String> touched = new LinkedHashSet<>(changed.keySet());
    for (String name : changed.keySet()) {
      for (ForeignKey fk : edges(name)) {
        touched.add(fk.fromTable());
        touched.add(fk.toTable());
      }
    }
    Set<ForeignKey> added = new LinkedHashSet<>();
    for (ForeignKey fk : edges) {
      if (!changed.containsKey(fk.fromTable()) && !changed.containsKey(fk.toTable())) {
        throw new IllegalArgumentException("foreign key " + fk.name() + " touches none of the changed tables " + changed.keySet());
      }
      // A key to a table the model does not hold cannot be joined.
      if (next.get(fk.fromTable()) != null && next.get(fk.toTable()) != null && added.add(fk)) {
        touched.add(fk.fromTable());
        touched.add(fk.toTable());
      }
    }
    PMap<String, List<ForeignKey>> out = outgoing;
    PMap<String, List<ForeignKey>> in = incoming;
    for (String t : touched) {
      out = replaced(out, t, outgoing(t), added, changed, fk -> fk.fromTable().equals(t));
      in = replaced(in, t, incoming(t), added, changed, fk -> fk.toTable().equals(t));
    }
    SchemaModel model = new SchemaModel(databaseId, next, out, in);
    // The neighbours of a table whose key lists stayed are the same: the first question on the new
    // version does not find them again around every hub it meets. A persistent map: the new version
    // shares the old one's sets and drops those of the touched tables, whatever their number.
    model.neighbourSets.set(neighbourSets.get().minusAll(touched));
    return model;
  }

  /** One table's key list: its keys that touch no changed table, and the new keys of its side, in the catalog's order. */
  private static PMap<String, List<ForeignKey>> replaced(PMap<String, List<ForeignKey>> lists, String table, List<ForeignKey> before,
                                                       Set<ForeignKey> added, Map<String, Optional<Table>> changed,
                                                       java.util.function.Predicate<ForeignKey> side) {
    List<ForeignKey> now = new ArrayList<>();
    for (ForeignKey fk : before) {
      if (!changed.containsKey(fk.fromTable()) && !changed.containsKey(fk.toTable())) {
        now.add(fk);
      }
    }
    for (ForeignKey fk : added) {
      if (side.test(fk)) {
        now.add(fk);
      }
    }
    if (now.isEmpty()) {
      return lists.minus(table);
    }
    now.sort(CATALOG_ORDER);
    return lists.plus(table, List.copyOf(now));
  }

  /** A model whose parts are already consistent (every key's ends held, the key lists matching the keys). */
  private SchemaModel(String databaseId, PMap<String, Table> tables, PMap<String, List<ForeignKey>> outgoing,
                      PMap<String, List<ForeignKey>> incoming) {
    this.databaseId = databaseId;
    this.tables = tables;
    this.outgoing = outgoing;
    this.incoming = incoming;
  }
}
