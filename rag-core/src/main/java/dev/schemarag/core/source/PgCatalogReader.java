package dev.schemarag.core.source;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.ConnectionSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads tables, columns (type, nullability, default, comment, primary key), foreign keys and
 * comments from a live PostgreSQL catalog. A table of schema {@code public} is named by its table
 * name, others as {@code schema.table}; a non-public schema is the table's module. With a number of
 * column values, a categorical text column also carries its common values as the planner's statistics
 * sampled them ({@link CategoricalValues}).
 */
public final class PgCatalogReader {

  private final ConnectionSource db;
  private final int columnValues;

  /** A reader of the catalog alone: no column values. */
  public PgCatalogReader(ConnectionSource db) {
    this(db, 0);
  }

  /** @param columnValues values kept at most per categorical text column; 0 reads no statistics */
  public PgCatalogReader(ConnectionSource db, int columnValues) {
    if (columnValues < 0) {
      throw new IllegalArgumentException("column values must be 0 or more, not " + columnValues);
    }
    this.db = db;
    this.columnValues = columnValues;
  }

  /** The model name of a table: bare for public, qualified otherwise. */
  public static String modelName(String schema, String table) {
    return "public".equals(schema) ? table : schema + "." + table;
  }

  /** Every ordinary, partitioned and foreign table and view of the given schemas. */
  public SchemaModel read(String databaseId, List<String> schemas) throws SQLException {
    try (Connection c = db.open()) {
      return build(c, databaseId, relations(c, schemas), columnValues);
    }
  }

  /**
   * The sampled values of every table of the schemas that has any, by model name and column: what a
   * snapshot of each would carry, without reading the rest of the catalog. Empty when this reader reads no values.
   */
  public Map<String, Map<String, List<String>>> columnValues(List<String> schemas) throws SQLException {
    Map<String, Map<String, List<String>>> out = new HashMap<>();
    if (columnValues == 0) {
      return out;
    }
    try (Connection c = db.open()) {
      Map<Long, String[]> rels = relations(c, schemas);
      values(c, rels, columnValues).forEach((oid, byColumn) -> out.put(modelName(rels.get(oid)[0], rels.get(oid)[1]), byColumn));
    }
    return out;
  }

  /**
   * The named tables (model names; those that no longer exist are simply absent) with every table
   * of the given schemas they have a foreign key to or from: enough to describe each named table
   * with its relationships both ways, without reading the whole catalog.
   */
  public SchemaModel readTables(String databaseId, List<String> schemas, java.util.Collection<String> names) throws SQLException {
    try (Connection c = db.open()) {
      // The named relations are found by name in the catalog, not by listing every relation of the schemas.
      Map<Long, String[]> named = relations(c, schemas, names);
      java.util.Set<Long> partners = new java.util.HashSet<>();
      if (!named.isEmpty()) {
        // Keys from a named table through pg_constraint's index on conrelid; keys to it through
        // pg_depend's index on the referenced object (a key depends on the columns it references):
        // pg_constraint has no index on confrelid, and a scan of it grows with the schema.
        try (PreparedStatement ps = c.prepareStatement("SELECT conrelid::int8, confrelid::int8 FROM pg_constraint"
            + " WHERE contype = 'f' AND conrelid = ANY (?::oid[])"
            + " UNION SELECT con.conrelid::int8, con.confrelid::int8 FROM pg_depend d JOIN pg_constraint con ON con.oid = d.objid"
            + " WHERE d.classid = 'pg_constraint'::regclass AND d.refclassid = 'pg_class'::regclass"
            + " AND d.refobjid = ANY (?::oid[]) AND con.contype = 'f' AND con.confrelid = d.refobjid")) {
          ps.setArray(1, oids(c, named.keySet()));
          ps.setArray(2, oids(c, named.keySet()));
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              partners.add(rs.getLong(1));
              partners.add(rs.getLong(2));
            }
          }
        }
      }
      partners.removeAll(named.keySet());
      Map<Long, String[]> rels = new LinkedHashMap<>(named);
      rels.putAll(relations(c, schemas, partners));
      return build(c, databaseId, rels, columnValues);
    }
  }

  private static SchemaModel build(Connection c, String databaseId, Map<Long, String[]> rels, int columnValues) throws SQLException {
    Map<Long, List<Column>> columns = columns(c, rels.keySet());
    Map<Long, Map<String, List<String>>> values = columnValues > 0 ? values(c, rels, columnValues) : Map.of();
    Map<Long, List<String>> pks = primaryKeys(c, rels.keySet());
    List<ForeignKey> fks = foreignKeys(c, rels.keySet());
    Map<String, String> refs = new HashMap<>();
    for (ForeignKey fk : fks) {
      if (fk.fromColumns().size() == 1) {
        refs.put(fk.fromTable() + "\u0000" + fk.fromColumns().get(0), fk.toTable() + "." + fk.toColumns().get(0));
      }
    }
    List<Table> tables = new ArrayList<>();
    for (var e : rels.entrySet()) {
      String[] r = e.getValue();
      String name = modelName(r[0], r[1]);
      List<String> pk = pks.getOrDefault(e.getKey(), List.of());
      List<Column> cols = new ArrayList<>();
      Map<String, List<String>> valuesOf = values.getOrDefault(e.getKey(), Map.of());
      for (Column col : columns.getOrDefault(e.getKey(), List.of())) {
        cols.add(new Column(col.name(), col.type(), col.nullable(), col.defaultValue(), col.comment(),
            pk.contains(col.name()), Optional.ofNullable(refs.get(name + "\u0000" + col.name())), valuesOf.getOrDefault(col.name(), List.of())));
      }
      tables.add(new Table(name, Optional.ofNullable(r[2]), cols, "public".equals(r[0]) ? Optional.empty() : Optional.of(r[0])));
    }
    return new SchemaModel(databaseId, tables, fks);
  }

  private static Map<Long, String[]> relations(Connection c, List<String> schemas) throws SQLException {
    return relations(c, schemas, "", null);
  }

  /**
   * The relations of the schemas with these model names. A name is looked up by (schema, relation)
   * through the catalog's index on relation names, for each way it can split at a dot (a bare name
   * is in public), and kept only where its model name is exactly the one asked for: a lookup reads
   * the named relations, not every relation of the schemas.
   */
  private static Map<Long, String[]> relations(Connection c, List<String> schemas, java.util.Collection<String> names) throws SQLException {
    if (names.isEmpty()) {
      return new LinkedHashMap<>();
    }
    List<String> nsp = new ArrayList<>();
    List<String> rel = new ArrayList<>();
    for (String name : names) {
      nsp.add("public");
      rel.add(name);
      for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
        nsp.add(name.substring(0, dot));
        rel.add(name.substring(dot + 1));
      }
    }
    Map<Long, String[]> out = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT DISTINCT c.oid, n.nspname, c.relname, obj_description(c.oid, 'pg_class') FROM unnest(?::text[], ?::text[]) AS w(nsp, rel)"
            + " JOIN pg_namespace n ON n.nspname = w.nsp JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = w.rel"
            + " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND n.nspname = ANY (?)"
            + " AND (CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END) = ANY (?)"
            + " ORDER BY n.nspname, c.relname")) {
      ps.setArray(1, c.createArrayOf("text", nsp.toArray()));
      ps.setArray(2, c.createArrayOf("text", rel.toArray()));
      ps.setArray(3, c.createArrayOf("text", schemas.toArray()));
      ps.setArray(4, c.createArrayOf("text", names.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getLong(1), new String[] {rs.getString(2), rs.getString(3), rs.getString(4)});
        }
      }
    }
    return out;
  }

  /** The relations of the schemas with these oids. */
  private static Map<Long, String[]> relations(Connection c, List<String> schemas, java.util.Set<Long> ids) throws SQLException {
    if (ids.isEmpty()) {
      return new LinkedHashMap<>();
    }
    return relations(c, schemas, " AND c.oid = ANY (?::oid[])", oids(c, ids));
  }

  /** @param filter an extra condition with one parameter, bound to {@code value}; "" for none */
  private static Map<Long, String[]> relations(Connection c, List<String> schemas, String filter, Array value) throws SQLException {
    Map<Long, String[]> out = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT c.oid, n.nspname, c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND n.nspname = ANY (?)" + filter
            + " ORDER BY n.nspname, c.relname")) {
      ps.setArray(1, c.createArrayOf("text", schemas.toArray()));
      if (value != null) {
        ps.setArray(2, value);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getLong(1), new String[] {rs.getString(2), rs.getString(3), rs.getString(4)});
        }
      }
    }
    return out;
  }

  private static Array oids(Connection c, java.util.Collection<Long> ids) throws SQLException {
    return c.createArrayOf("int8", ids.toArray());
  }

  private static Map<Long, List<Column>> columns(Connection c, java.util.Collection<Long> rels) throws SQLException {
    Map<Long, List<Column>> out = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT a.attrelid::int8, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,"
            + " pg_get_expr(d.adbin, d.adrelid), col_description(a.attrelid, a.attnum)"
            + " FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
            + " WHERE a.attrelid = ANY (?::oid[]) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum")) {
      ps.setArray(1, oids(c, rels));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(new Column(rs.getString(2), rs.getString(3),
              !rs.getBoolean(4), Optional.ofNullable(rs.getString(5)), Optional.ofNullable(rs.getString(6)), false, Optional.empty()));
        }
      }
    }
    return out;
  }

  /**
   * The common values of the relations' text and enum columns, by relation and column, from
   * {@code pg_stats}: what the last ANALYZE sampled, no read of the tables themselves. A table never
   * analyzed, or a column the reading role may not select, has no statistics and so no values. The view
   * is filtered by the relations' schema and table names, which its catalog indexes serve: joined on
   * names alone, PostgreSQL reads every statistic of the database for each call.
   */
  private static Map<Long, Map<String, List<String>>> values(Connection c, Map<Long, String[]> rels, int max) throws SQLException {
    Map<Long, Map<String, List<String>>> out = new HashMap<>();
    if (rels.isEmpty()) {
      return out;
    }
    java.util.Set<String> schemas = new java.util.TreeSet<>();
    java.util.Set<String> names = new java.util.TreeSet<>();
    rels.values().forEach(r -> {
      schemas.add(r[0]);
      names.add(r[1]);
    });
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT cl.oid::int8, s.attname, s.n_distinct, cl.reltuples, s.most_common_vals::text::text[], s.histogram_bounds::text::text[]"
            + " FROM pg_stats s JOIN pg_namespace n ON n.nspname = s.schemaname"
            + " JOIN pg_class cl ON cl.relnamespace = n.oid AND cl.relname = s.tablename"
            + " JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attname = s.attname JOIN pg_type t ON t.oid = a.atttypid"
            + " WHERE s.schemaname = ANY (?) AND s.tablename = ANY (?) AND NOT s.inherited AND t.typcategory IN ('S', 'E')"
            + " AND cl.oid = ANY (?::oid[])")) {
      ps.setArray(1, c.createArrayOf("text", schemas.toArray()));
      ps.setArray(2, c.createArrayOf("text", names.toArray()));
      ps.setArray(3, oids(c, rels.keySet()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          List<String> picked = CategoricalValues.pick(rs.getDouble(3), rs.getDouble(4), strings(rs.getArray(5)), strings(rs.getArray(6)), max);
          if (!picked.isEmpty()) {
            out.computeIfAbsent(rs.getLong(1), k -> new HashMap<>()).put(rs.getString(2), picked);
          }
        }
      }
    }
    return out;
  }

  private static List<String> strings(Array a) throws SQLException {
    return a == null ? List.of() : java.util.Arrays.asList((String[]) a.getArray());
  }

  private static Map<Long, List<String>> primaryKeys(Connection c, java.util.Collection<Long> rels) throws SQLException {
    Map<Long, List<String>> out = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT con.conrelid::int8, a.attname FROM pg_constraint con"
            + " CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)"
            + " JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum"
            + " WHERE con.contype = 'p' AND con.conrelid = ANY (?::oid[]) ORDER BY con.conrelid, k.ord")) {
      ps.setArray(1, oids(c, rels));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(rs.getString(2));
        }
      }
    }
    return out;
  }

  /** Foreign keys from the given tables (outgoing); the model derives incoming ones. */
  private static List<ForeignKey> foreignKeys(Connection c, java.util.Collection<Long> rels) throws SQLException {
    List<ForeignKey> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT con.conname, fn.nspname, ft.relname, tn.nspname, tt.relname,"
            + " ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o)::text[],"
            + " ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.o)::text[]"
            + " FROM pg_constraint con JOIN pg_class ft ON ft.oid = con.conrelid JOIN pg_namespace fn ON fn.oid = ft.relnamespace"
            + " JOIN pg_class tt ON tt.oid = con.confrelid JOIN pg_namespace tn ON tn.oid = tt.relnamespace"
            + " WHERE con.contype = 'f' AND con.conrelid = ANY (?::oid[]) ORDER BY con.conname")) {
      ps.setArray(1, oids(c, rels));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new ForeignKey(rs.getString(1), modelName(rs.getString(2), rs.getString(3)),
              List.of((String[]) rs.getArray(6).getArray()), modelName(rs.getString(4), rs.getString(5)),
              List.of((String[]) rs.getArray(7).getArray())));
        }
      }
    }
    return out;
  }
}
