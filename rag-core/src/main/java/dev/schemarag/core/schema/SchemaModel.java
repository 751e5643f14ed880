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
  private final Map<String, List<ForeignKey>> outgoing = new HashMap<>();
  private final Map<String, List<ForeignKey>> incoming = new HashMap<>();

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
        .sorted(java.util.Comparator.comparing(ForeignKey::name, java.util.Comparator.nullsFirst(java.util.Comparator.<String>naturalOrder()))
            .thenComparing(ForeignKey::fromTable))
        .toList();
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
}
