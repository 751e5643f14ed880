package dev.schemarag.cli;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A schema description (the benchmark JSON format) as PostgreSQL DDL in one schema, so that a
 * benchmark's tables can go through the live pipeline like any database's: tables with their
 * primary keys, comments from the descriptions, and every one-column foreign key: PostgreSQL takes
 * a key only onto a unique column of the same type, so a referenced column the description does not
 * declare unique gets a unique constraint, and a referencing column takes the referenced one's type.
 */
final class SchemaDdl {
  private SchemaDdl() {}

  /** The statements, and how many foreign keys could not be written (onto no column of the model, or of several columns). */
  record Ddl(List<String> statements, int skippedForeignKeys) {}

  static Ddl of(SchemaModel model, String schema) {
    return of(model, List.of(schema), t -> new Placement(schema, t.name()));
  }

  /** Where a table of the model goes: its PostgreSQL schema and table name. */
  record Placement(String schema, String table) {
    /** The name the catalog reader gives the table once it is there. */
    String modelName() {
      return schema + "." + table;
    }
  }

  /**
   * Every table in the schema of its module (lower-cased, as an unquoted name would be), so that
   * the catalog read back groups tables as the description did: a benchmark's {@code db_id}, or a
   * generated module. A table named {@code module.table}, or {@code module__table} as the benchmark
   * unions name a database's table, loses the prefix there: in its own database the table has its
   * own name, and the prefix would be read twice, once as the schema and once in the name.
   */
  static Ddl inModules(SchemaModel model) {
    List<String> schemas = model.tables().stream().map(t -> placeInModule(t).schema()).distinct().toList();
    return of(model, schemas, SchemaDdl::placeInModule);
  }

  static Placement placeInModule(Table t) {
    String module = t.module().orElseThrow(() -> new IllegalArgumentException("table " + t.name() + " has no module to be its schema"));
    return new Placement(module.toLowerCase(Locale.ROOT), withoutModule(t.name(), module));
  }

  /** The table's name without a leading {@code module.} or {@code module__}. */
  static String withoutModule(String name, String module) {
    for (String prefix : List.of(module + ".", module + "__")) {
      if (name.startsWith(prefix) && name.length() > prefix.length()) {
        return name.substring(prefix.length());
      }
    }
    return name;
  }

  private static Ddl of(SchemaModel model, List<String> schemas, java.util.function.Function<Table, Placement> place) {
    List<String> out = new ArrayList<>();
    for (String schema : schemas) {
      out.add("DROP SCHEMA IF EXISTS " + quote(schema) + " CASCADE");
      out.add("CREATE SCHEMA " + quote(schema));
    }
    Map<String, String> keyTypes = keyTypes(model);
    for (Table t : model.tables()) {
      Placement at = place.apply(t);
      List<String> defs = new ArrayList<>();
      for (Column c : t.columns()) {
        defs.add(quote(c.name()) + " " + keyTypes.getOrDefault(t.name() + "." + c.name(), pgType(c.type())));
      }
      if (!t.primaryKey().isEmpty()) {
        defs.add("PRIMARY KEY (" + String.join(", ", t.primaryKey().stream().map(SchemaDdl::quote).toList()) + ")");
      }
      String name = qualified(at.schema(), at.table());
      out.add("CREATE TABLE " + name + " (" + String.join(", ", defs) + ")");
      t.comment().ifPresent(c -> out.add("COMMENT ON TABLE " + name + " IS " + literal(c)));
      for (Column c : t.columns()) {
        c.comment().ifPresent(text -> out.add("COMMENT ON COLUMN " + name + "." + quote(c.name()) + " IS " + literal(text)));
      }
    }
    int skipped = 0;
    Set<String> unique = new HashSet<>();
    for (ForeignKey fk : model.foreignKeys()) {
      Optional<String> fromKey = key(model, fk.fromTable(), fk.fromColumns());
      Optional<String> toKey = key(model, fk.toTable(), fk.toColumns());
      if (fromKey.isEmpty() || toKey.isEmpty() || !typeOf(model, keyTypes, fromKey.get()).equals(typeOf(model, keyTypes, toKey.get()))) {
        skipped++;
        continue;
      }
      Table to = model.table(fk.toTable()).orElseThrow();
      Placement f = place.apply(model.table(fk.fromTable()).orElseThrow());
      Placement t = place.apply(to);
      String target = qualified(t.schema(), t.table());
      String toColumn = toKey.get().substring(fk.toTable().length() + 1);
      // PostgreSQL references a unique key only: one the description does not declare is added, as a database holding the key has it.
      if (!to.primaryKey().equals(List.of(toColumn)) && unique.add(target + "." + quote(toColumn))) {
        out.add("ALTER TABLE " + target + " ADD UNIQUE (" + quote(toColumn) + ")");
      }
      out.add("ALTER TABLE " + qualified(f.schema(), f.table()) + " ADD FOREIGN KEY (" + quote(fromKey.get().substring(fk.fromTable().length() + 1))
          + ") REFERENCES " + target + " (" + quote(toColumn) + ")");
    }
    return new Ddl(out, skipped);
  }

  /**
   * The type of each column that references another, where the description gives the two different
   * types (SQLite and Spider's coarse types let a text column hold numbers): the referenced column's,
   * followed along chains of references, since PostgreSQL joins a key only to a key of its type.
   * By {@code table.column}.
   */
  private static Map<String, String> keyTypes(SchemaModel model) {
    Map<String, String> types = new HashMap<>();
    for (int pass = 0; pass <= model.foreignKeys().size(); pass++) {
      boolean changed = false;
      for (ForeignKey fk : model.foreignKeys()) {
        Optional<String> from = key(model, fk.fromTable(), fk.fromColumns());
        Optional<String> to = key(model, fk.toTable(), fk.toColumns());
        if (from.isEmpty() || to.isEmpty()) {
          continue;
        }
        String toType = typeOf(model, types, to.get());
        if (!toType.equals(typeOf(model, types, from.get()))) {
          types.put(from.get(), toType);
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
    }
    return types; // a cycle of keys of different types keeps them apart, and its key is left out
  }

  /** {@code table.column} of a one-column key, as the table spells the column; empty when there is none. */
  private static Optional<String> key(SchemaModel model, String table, List<String> columns) {
    if (columns.size() != 1) {
      return Optional.empty();
    }
    return model.table(table).flatMap(t -> t.column(columns.get(0))).map(c -> table + "." + c.name());
  }

  private static String typeOf(SchemaModel model, Map<String, String> types, String key) {
    String given = types.get(key);
    if (given != null) {
      return given;
    }
    int dot = key.lastIndexOf('.');
    return pgType(model.table(key.substring(0, dot)).flatMap(t -> t.column(key.substring(dot + 1))).orElseThrow().type());
  }

  /** The benchmarks' portable types (Spider's coarse ones, BIRD's SQLite ones) as PostgreSQL types; a type PostgreSQL knows is kept. */
  static String pgType(String type) {
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "number" -> "numeric";
      case "time", "datetime" -> "timestamp";
      case "boolean" -> "boolean";
      case "others", "text", "" -> "text";
      default -> type.matches("[A-Za-z][A-Za-z0-9 (),]*") ? type : "text";
    };
  }

  private static String qualified(String schema, String table) {
    return quote(schema) + "." + quote(table);
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
