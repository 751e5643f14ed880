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
    List<Link> links = links(model);
    Map<String, String> keyTypes = keyTypes(links);
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
    int skipped = model.foreignKeys().size() - links.size();
    Set<String> unique = new HashSet<>();
    for (Link link : links) {
      if (!typeOf(keyTypes, link.from()).equals(typeOf(keyTypes, link.to()))) {
        skipped++;
        continue;
      }
      Placement f = place.apply(link.from().table());
      Placement t = place.apply(link.to().table());
      String target = qualified(t.schema(), t.table());
      String toColumn = link.to().column().name();
      // PostgreSQL references a unique key only: one the description does not declare is added, as a database holding the key has it.
      if (!link.to().table().primaryKey().equals(List.of(toColumn)) && unique.add(target + "." + quote(toColumn))) {
        out.add("ALTER TABLE " + target + " ADD UNIQUE (" + quote(toColumn) + ")");
      }
      out.add("ALTER TABLE " + qualified(f.schema(), f.table()) + " ADD FOREIGN KEY (" + quote(link.from().column().name())
          + ") REFERENCES " + target + " (" + quote(toColumn) + ")");
    }
    return new Ddl(out, skipped);
  }

  /** A column of a table, as the table spells it. */
  private record Key(Table table, Column column) {
    /** {@code table.column}: how {@link #keyTypes} names it. */
    String ref() {
      return table.name() + "." + column.name();
    }
  }

  /** A one-column foreign key between two columns the model has. */
  private record Link(Key from, Key to) {}

  /** The model's one-column foreign keys whose columns it has, in its order; the others cannot be written. */
  private static List<Link> links(SchemaModel model) {
    List<Link> out = new ArrayList<>();
    for (ForeignKey fk : model.foreignKeys()) {
      Optional<Key> from = key(model, fk.fromTable(), fk.fromColumns());
      Optional<Key> to = key(model, fk.toTable(), fk.toColumns());
      if (from.isPresent() && to.isPresent()) {
        out.add(new Link(from.get(), to.get()));
      }
    }
    return out;
  }

  /**
   * The type of each column that references another, where the description gives the two different
   * types (SQLite and Spider's coarse types let a text column hold numbers): the referenced column's,
   * followed along chains of references, since PostgreSQL joins a key only to a key of its type.
   * By {@link Key#ref}. A column that references two keys of different types takes the last one's
   * type in every pass, so a pass is done when it leaves the types as it found them, not when it
   * changed nothing on the way: public schemas have such columns, and waiting for no change at all
   * ran one pass per key (over eight minutes at 10,000 tables of public schemas, unfinished).
   */
  private static Map<String, String> keyTypes(List<Link> links) {
    Map<String, String> types = new HashMap<>();
    for (int pass = 0; pass < MAX_KEY_TYPE_PASSES; pass++) {
      Map<String, String> before = new HashMap<>(types);
      for (Link link : links) {
        String toType = typeOf(types, link.to());
        if (!toType.equals(typeOf(types, link.from()))) {
          types.put(link.from().ref(), toType);
        }
      }
      if (types.equals(before)) {
        break;
      }
    }
    return types; // a cycle of keys of different types keeps them apart, and its key is left out
  }

  /** Passes of {@link #keyTypes}: one per step of the longest chain of references, which no schema makes this long. */
  private static final int MAX_KEY_TYPE_PASSES = 64;

  /** The column of a one-column key; empty when the key has more columns or the model lacks the column. */
  private static Optional<Key> key(SchemaModel model, String table, List<String> columns) {
    if (columns.size() != 1) {
      return Optional.empty();
    }
    return model.table(table).flatMap(t -> t.column(columns.get(0)).map(c -> new Key(t, c)));
  }

  private static String typeOf(Map<String, String> types, Key key) {
    return types.getOrDefault(key.ref(), pgType(key.column().type()));
  }

  /**
   * The benchmarks' portable types (Spider's coarse ones, BIRD's SQLite ones) as PostgreSQL types; a type PostgreSQL
   * knows is kept, and any other (an application's own, "Data" or "Link(Company)", or another database's, "int(11)") is text.
   */
  static String pgType(String type) {
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "number" -> "numeric";
      case "time", "datetime" -> "timestamp";
      case "boolean" -> "boolean";
      case "others", "text", "" -> "text";
      default -> POSTGRES_TYPE.matcher(type.strip()).matches() ? type.strip() : "text";
    };
  }

  /** PostgreSQL's own type names, with the modifiers each takes; what a CREATE TABLE accepts as it is. */
  private static final java.util.regex.Pattern POSTGRES_TYPE = java.util.regex.Pattern.compile("(?i)"
      + "smallint|integer|int|int2|int4|int8|bigint|real|float4|float8|double precision|smallserial|serial|bigserial|money|text|bytea"
      + "|date|boolean|bool|uuid|jsonb?|xml|inet|cidr|macaddr|timestamptz|timetz|interval"
      + "|(?:numeric|decimal)(?:\\s*\\(\\s*\\d+\\s*(?:,\\s*\\d+\\s*)?\\))?"
      + "|(?:varchar|character varying|char|character|float|bit|varbit|bit varying)(?:\\s*\\(\\s*\\d+\\s*\\))?"
      + "|(?:timestamp|time)(?:\\s*\\(\\s*\\d\\s*\\))?(?:\\s+with(?:out)?\\s+time\\s+zone)?");

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
