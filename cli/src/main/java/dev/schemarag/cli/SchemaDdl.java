package dev.schemarag.cli;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A schema description (the benchmark JSON format) as PostgreSQL DDL in one schema, so that a
 * benchmark's tables can go through the live pipeline like any database's: tables with their
 * primary keys, comments from the descriptions, and the foreign keys PostgreSQL accepts (onto a
 * single-column primary key of the same type).
 */
final class SchemaDdl {
  private SchemaDdl() {}

  /** The statements, and how many foreign keys PostgreSQL could not take. */
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
   * generated module. A table named {@code module.table} loses the prefix there.
   */
  static Ddl inModules(SchemaModel model) {
    List<String> schemas = model.tables().stream().map(t -> placeInModule(t).schema()).distinct().toList();
    return of(model, schemas, SchemaDdl::placeInModule);
  }

  static Placement placeInModule(Table t) {
    String module = t.module().orElseThrow(() -> new IllegalArgumentException("table " + t.name() + " has no module to be its schema"));
    String prefix = module + ".";
    String table = t.name().startsWith(prefix) ? t.name().substring(prefix.length()) : t.name();
    return new Placement(module.toLowerCase(Locale.ROOT), table);
  }

  private static Ddl of(SchemaModel model, List<String> schemas, java.util.function.Function<Table, Placement> place) {
    List<String> out = new ArrayList<>();
    for (String schema : schemas) {
      out.add("DROP SCHEMA IF EXISTS " + quote(schema) + " CASCADE");
      out.add("CREATE SCHEMA " + quote(schema));
    }
    for (Table t : model.tables()) {
      Placement at = place.apply(t);
      List<String> defs = new ArrayList<>();
      for (Column c : t.columns()) {
        defs.add(quote(c.name()) + " " + pgType(c.type()));
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
    for (ForeignKey fk : model.foreignKeys()) {
      Optional<Table> to = model.table(fk.toTable());
      Optional<Column> from = model.table(fk.fromTable()).flatMap(t -> t.column(fk.fromColumns().get(0)));
      boolean accepted = to.isPresent() && from.isPresent() && to.get().primaryKey().equals(fk.toColumns())
          && to.get().column(fk.toColumns().get(0)).map(c -> pgType(c.type()).equals(pgType(from.get().type()))).orElse(false);
      if (!accepted) {
        skipped++;
        continue;
      }
      Placement f = place.apply(model.table(fk.fromTable()).orElseThrow());
      Placement t = place.apply(to.get());
      out.add("ALTER TABLE " + qualified(f.schema(), f.table()) + " ADD FOREIGN KEY (" + quote(fk.fromColumns().get(0)) + ") REFERENCES "
          + qualified(t.schema(), t.table()) + " (" + quote(fk.toColumns().get(0)) + ")");
    }
    return new Ddl(out, skipped);
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
