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
    List<String> out = new ArrayList<>();
    out.add("DROP SCHEMA IF EXISTS " + quote(schema) + " CASCADE");
    out.add("CREATE SCHEMA " + quote(schema));
    for (Table t : model.tables()) {
      List<String> defs = new ArrayList<>();
      for (Column c : t.columns()) {
        defs.add(quote(c.name()) + " " + pgType(c.type()));
      }
      if (!t.primaryKey().isEmpty()) {
        defs.add("PRIMARY KEY (" + String.join(", ", t.primaryKey().stream().map(SchemaDdl::quote).toList()) + ")");
      }
      String name = qualified(schema, t.name());
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
      out.add("ALTER TABLE " + qualified(schema, fk.fromTable()) + " ADD FOREIGN KEY (" + quote(fk.fromColumns().get(0)) + ") REFERENCES "
          + qualified(schema, fk.toTable()) + " (" + quote(fk.toColumns().get(0)) + ")");
    }
    return new Ddl(out, skipped);
  }

  /** The benchmark's portable types as PostgreSQL types; a type PostgreSQL knows is kept. */
  static String pgType(String type) {
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "number" -> "numeric";
      case "time" -> "timestamp";
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
