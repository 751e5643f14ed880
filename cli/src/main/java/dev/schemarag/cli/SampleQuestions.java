package dev.schemarag.cli;

import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Questions with their SQL, derived from a database's catalog and docs, for the answer benchmark:
 * every documented query pattern (its use case as the question), and per table a count, a listing
 * of two descriptive columns and, per foreign key, a count per referenced row. Deterministic, and
 * interleaved by kind so that any prefix mixes them.
 */
final class SampleQuestions {
  private SampleQuestions() {}

  /** A question and the SQL that answers it. */
  record Gold(String kind, String question, String sql) {}

  static List<Gold> of(SchemaModel model, Map<String, TableDoc> docs) {
    Map<String, List<Gold>> byKind = new LinkedHashMap<>();
    for (TableDoc d : new TreeMap<>(docs).values()) {
      for (TableDoc.QueryPattern p : d.queryPatterns()) {
        p.useCase().ifPresent(u -> add(byKind, "pattern", u.strip() + "?", p.sql()));
      }
    }
    Set<String> fkColumns = new HashSet<>();
    model.foreignKeys().forEach(fk -> fk.fromColumns().forEach(c -> fkColumns.add(fk.fromTable() + "." + c)));
    for (Table t : model.tables()) {
      String words = words(t.name());
      add(byKind, "count", "How many " + words + " are there?", "SELECT count(*) AS n FROM " + t.name());
      List<Column> descriptive = t.columns().stream()
          .filter(c -> !t.primaryKey().contains(c.name()) && !fkColumns.contains(t.name() + "." + c.name())).limit(2).toList();
      if (descriptive.size() == 2) {
        String order = t.primaryKey().isEmpty() ? "" : " ORDER BY " + String.join(", ", t.primaryKey());
        add(byKind, "list", "List the " + Identifiers.readable(descriptive.get(0).name()) + " and " + Identifiers.readable(descriptive.get(1).name())
            + " of ten " + words, "SELECT " + descriptive.get(0).name() + ", " + descriptive.get(1).name() + " FROM " + t.name() + order + " LIMIT 10");
      }
    }
    for (ForeignKey fk : model.foreignKeys()) {
      if (fk.fromTable().equals(fk.toTable()) || fk.fromColumns().size() != 1) {
        continue;
      }
      String to = fk.toTable();
      String key = fk.toColumns().get(0);
      add(byKind, "join", "How many " + words(fk.fromTable()) + " are there per " + words(to) + " (by " + Identifiers.readable(fk.fromColumns().get(0))
          + ")? Show the ten with the most", "SELECT r." + key + ", count(*) AS n FROM " + fk.fromTable() + " f JOIN " + to + " r ON f."
          + fk.fromColumns().get(0) + " = r." + key + " GROUP BY r." + key + " ORDER BY n DESC LIMIT 10");
    }
    List<Gold> out = new ArrayList<>();
    List<List<Gold>> lists = new ArrayList<>(byKind.values());
    while (lists.stream().anyMatch(l -> !l.isEmpty())) {
      for (List<Gold> l : lists) {
        if (!l.isEmpty()) {
          out.add(l.remove(0));
        }
      }
    }
    return out;
  }

  private static void add(Map<String, List<Gold>> byKind, String kind, String question, String sql) {
    byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(new Gold(kind, question, sql));
  }

  /** {@code sales.order_lines} -> {@code order lines}. */
  private static String words(String table) {
    return Identifiers.readable(table.substring(table.indexOf('.') + 1));
  }
}
