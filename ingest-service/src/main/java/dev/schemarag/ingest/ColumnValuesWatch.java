package dev.schemarag.ingest;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The column values each table carried when it was last published, to tell which tables' values have
 * moved since: data changes no DDL event announces (a new product category, a department renamed)
 * reach the statistics at the next ANALYZE, and a table whose values moved is snapshotted again.
 */
final class ColumnValuesWatch {

  /** Per table, its columns' values as last published (an empty map: published without values). */
  private final Map<String, Map<String, List<String>>> published = new HashMap<>();

  /** These tables of the model were just published as it describes them. */
  synchronized void published(SchemaModel model, Collection<String> tables) {
    for (String name : tables) {
      model.table(name).ifPresent(t -> published.put(name, valuesOf(t)));
    }
  }

  /** The table was published as gone. */
  synchronized void gone(String table) {
    published.remove(table);
  }

  /**
   * The tables whose values differ from what was last published, given every table's values as read now
   * (a table without values is absent): those with other values, and those whose values are gone.
   */
  synchronized Set<String> moved(Map<String, Map<String, List<String>>> now) {
    Set<String> out = new TreeSet<>();
    now.forEach((table, values) -> {
      if (!values.equals(published.getOrDefault(table, Map.of()))) {
        out.add(table);
      }
    });
    published.forEach((table, values) -> {
      if (!values.isEmpty() && !now.containsKey(table)) {
        out.add(table);
      }
    });
    return out;
  }

  static Map<String, List<String>> valuesOf(Table t) {
    Map<String, List<String>> out = new HashMap<>();
    for (Column c : t.columns()) {
      if (!c.values().isEmpty()) {
        out.put(c.name(), c.values());
      }
    }
    return out;
  }
}
