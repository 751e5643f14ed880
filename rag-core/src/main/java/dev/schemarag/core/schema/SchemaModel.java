package dev.schemarag.core.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The tables of one database with their foreign keys, navigable in both directions. Immutable. */
public final class SchemaModel {

  private final String databaseId;
  private final Map<String, Table> tables;
  private final List<ForeignKey> foreignKeys;
  private final Map<String, List<ForeignKey>> outgoing;
  private final Map<String, List<ForeignKey>> incoming;

  /** The order foreign keys are kept in: the catalog's (constraint name, then table). */
  private static final java.util.Comparator<ForeignKey> CATALOG_ORDER = java.util.Comparator.comparing(ForeignKey::name,
      java.util.Comparator.nullsFirst(java.util.Comparator.<String>naturalOrder())).thenComparing(ForeignKey::fromTable);

  public SchemaModel(String databaseId, Collection<Table> tables, Collection<ForeignKey> foreignKeys) {
    this.databaseId = databaseId;
    Map<String, Table> byName = new LinkedHashMap<>();
    tables.forEach(t -> byName.put(t.name(), t));
    this.tables = java.util.Collections.unmodifiableMap(byName);
    // Keep only keys whose both ends are in the model: a dangling FK cannot be joined. In one order
    // (the catalog's: constraint name, then table) whatever order they came in, so that a model
    // patched table by table gives the same relationship chunks as one read whole.
    this.foreignKeys = foreignKeys.stream()
        .filter(fk -> byName.containsKey(fk.fromTable()) && byName.containsKey(fk.toTable()))
        .sorted(CATALOG_ORDER)
        .toList();
    this.outgoing = new HashMap<>();
    this.incoming = new HashMap<>();
    for (ForeignKey fk : this.foreignKeys) {
      outgoing.computeIfAbsent(fk.fromTable(), k -> new ArrayList<>()).add(fk);
      incoming.computeIfAbsent(fk.toTable(), k -> new ArrayList<>()).add(fk);
    }
  }

  public String databaseId() {
    return databaseId;
  }

  public Collection<Table> tables() {
    return tables.values();
  }

  public Optional<Table> table(String name) {
    return Optional.ofNullable(tables.get(name));
  }

  public int size() {
    return tables.size();
  }

  public List<ForeignKey> foreignKeys() {
    return foreignKeys;
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

  /** Direct neighbours over FKs in both directions, self-references excluded. */
  public Set<String> neighbours(String table) {
    Set<String> n = new LinkedHashSet<>();
    for (ForeignKey fk : edges(table)) {
      String other = fk.other(table);
      if (!other.equals(table)) {
        n.add(other);
      }
    }
    return n;
  }

  /** A copy with one table replaced, added ({@code table} present) or removed (empty). */
  public SchemaModel withTable(String name, Optional<Table> table, List<ForeignKey> itsOutgoing) {
    Map<String, Table> next = new LinkedHashMap<>(tables);
    List<ForeignKey> fks = new ArrayList<>(foreignKeys.stream().filter(fk -> !fk.fromTable().equals(name)).toList());
    if (table.isPresent()) {
      next.put(name, table.get());
      fks.addAll(itsOutgoing);
    } else {
      next.remove(name);
    }
    return new SchemaModel(databaseId, next.values(), fks);
  }

  /**
   * A copy with several tables replaced, added (present) or removed (empty), and every foreign key
   * touching one of them, in either direction, replaced by {@code edges}: as the catalog now
   * describes those tables. Kept tables keep their order, new ones come after; keys are in the
   * catalog's order, as a model read whole has them.
   */
  public SchemaModel withTables(Map<String, Optional<Table>> changed, Collection<ForeignKey> edges) {
    Map<String, Table> next = new LinkedHashMap<>(tables);
    changed.forEach((name, table) -> {
      if (table.isPresent()) {
        if (!table.get().name().equals(name)) {
          throw new IllegalArgumentException("table " + table.get().name() + " given as " + name);
        }
        next.put(name, table.get());
      } else {
        next.remove(name);
      }
    });
    // Only the keys' lists of the tables they touch are rebuilt: the others are shared with this model.
    Set<String> touched = new LinkedHashSet<>(changed.keySet());
    List<ForeignKey> fks = new ArrayList<>(foreignKeys.size() + edges.size());
    for (ForeignKey fk : foreignKeys) {
      if (changed.containsKey(fk.fromTable()) || changed.containsKey(fk.toTable())) {
        touched.add(fk.fromTable());
        touched.add(fk.toTable());
      } else {
        fks.add(fk);
      }
    }
    Set<ForeignKey> added = new LinkedHashSet<>();
    for (ForeignKey fk : edges) {
      if (!changed.containsKey(fk.fromTable()) && !changed.containsKey(fk.toTable())) {
        throw new IllegalArgumentException("foreign key " + fk.name() + " touches none of the changed tables " + changed.keySet());
      }
      // A key to a table the model does not hold cannot be joined.
      if (next.containsKey(fk.fromTable()) && next.containsKey(fk.toTable()) && added.add(fk)) {
        fks.add(fk);
        touched.add(fk.fromTable());
        touched.add(fk.toTable());
      }
    }
    fks.sort(CATALOG_ORDER);
    Map<String, List<ForeignKey>> out = new HashMap<>(outgoing);
    Map<String, List<ForeignKey>> in = new HashMap<>(incoming);
    for (String t : touched) {
      out.remove(t);
      in.remove(t);
    }
    for (ForeignKey fk : fks) {
      if (touched.contains(fk.fromTable())) {
        out.computeIfAbsent(fk.fromTable(), k -> new ArrayList<>()).add(fk);
      }
      if (touched.contains(fk.toTable())) {
        in.computeIfAbsent(fk.toTable(), k -> new ArrayList<>()).add(fk);
      }
    }
    return new SchemaModel(databaseId, java.util.Collections.unmodifiableMap(next), List.copyOf(fks), out, in);
  }

  /** A model whose parts are already consistent (every key's ends held, the key lists matching the keys). */
  private SchemaModel(String databaseId, Map<String, Table> tables, List<ForeignKey> foreignKeys,
                      Map<String, List<ForeignKey>> outgoing, Map<String, List<ForeignKey>> incoming) {
    this.databaseId = databaseId;
    this.tables = tables;
    this.foreignKeys = foreignKeys;
    this.outgoing = outgoing;
    this.incoming = incoming;
  }
}
