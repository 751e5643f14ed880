package dev.schemarag.service;

import dev.schemarag.core.chunk.Hashing;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.events.catalog.ColumnSnapshot;
import dev.schemarag.events.catalog.ForeignKeyRef;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Catalog events to and from the engine's schema model. A snapshot carries one table with its
 * outgoing and incoming foreign keys; as a model it is that table plus a bare entry for every
 * neighbour, so the chunker sees the same relationships a model of the whole catalog gives.
 */
public final class CatalogSnapshots {
  private CatalogSnapshots() {}

  /** Schema and table of a model name ({@code orders} is in public, {@code hr.employees} in hr). */
  public record QualifiedName(String schema, String table) {
    public static QualifiedName ofModelName(String name) {
      int dot = name.indexOf('.');
      return dot < 0 ? new QualifiedName("public", name) : new QualifiedName(name.substring(0, dot), name.substring(dot + 1));
    }

    public String modelName() {
      return PgCatalogReader.modelName(schema, table);
    }
  }

  public static TableKey key(String databaseId, QualifiedName name) {
    return new TableKey(databaseId, name.schema(), name.table());
  }

  public static QualifiedName name(TableKey key) {
    return new QualifiedName(key.getSchemaName(), key.getTableName());
  }

  /** The snapshot of {@code tableName} (a model name) as {@code model} describes it. */
  public static TableSnapshot of(SchemaModel model, String tableName, long capturedAtMs, Long sourceTsMs) {
    Table t = model.table(tableName).orElseThrow(() -> new IllegalArgumentException("no table " + tableName + " in the model"));
    QualifiedName q = QualifiedName.ofModelName(tableName);
    List<ColumnSnapshot> columns = new ArrayList<>();
    for (Column c : t.columns()) {
      columns.add(new ColumnSnapshot(c.name(), c.type(), c.nullable(), c.defaultValue().orElse(null), c.comment().orElse(null),
          c.primaryKey(), c.references().orElse(null), c.values()));
    }
    List<ForeignKeyRef> out = model.outgoing(tableName).stream().map(CatalogSnapshots::ref).toList();
    List<ForeignKeyRef> in = model.incoming(tableName).stream().map(CatalogSnapshots::ref).toList();
    TableSnapshot s = new TableSnapshot(model.databaseId(), q.schema(), q.table(), t.comment().orElse(null), columns, out, in,
        t.module().orElse(null), "", capturedAtMs, sourceTsMs);
    s.setCatalogHash(hash(s));
    return s;
  }

  private static ForeignKeyRef ref(ForeignKey fk) {
    QualifiedName from = QualifiedName.ofModelName(fk.fromTable());
    QualifiedName to = QualifiedName.ofModelName(fk.toTable());
    return new ForeignKeyRef(fk.name(), from.schema(), from.table(), List.copyOf(fk.fromColumns()), to.schema(), to.table(),
        List.copyOf(fk.toColumns()));
  }

  /** SHA-256 over everything the catalog says of the table: equal hashes mean an unchanged table. */
  public static String hash(TableSnapshot s) {
    List<String> parts = new ArrayList<>();
    parts.add(s.getDatabaseId());
    parts.add(s.getSchemaName());
    parts.add(s.getTableName());
    parts.add(String.valueOf(s.getComment()));
    parts.add(String.valueOf(s.getModule()));
    for (ColumnSnapshot c : s.getColumns()) {
      parts.add(c.getName() + "|" + c.getType() + "|" + c.getNullable() + "|" + c.getDefaultValue() + "|" + c.getComment() + "|"
          + c.getPrimaryKey() + "|" + c.getReferences() + (c.getValues().isEmpty() ? "" : "|" + String.join("\u0000", c.getValues())));
    }
    s.getForeignKeys().forEach(f -> parts.add("out|" + f));
    s.getReferencedBy().forEach(f -> parts.add("in|" + f));
    return Hashing.sha256(parts.toArray(String[]::new));
  }

  /** The model name of the snapshot's table. */
  public static String modelName(TableSnapshot s) {
    return PgCatalogReader.modelName(s.getSchemaName(), s.getTableName());
  }

  /** The snapshot's table, its neighbours as bare tables, and its foreign keys both ways. */
  public static SchemaModel toModel(TableSnapshot s) {
    String name = modelName(s);
    List<Column> columns = new ArrayList<>();
    for (ColumnSnapshot c : s.getColumns()) {
      columns.add(new Column(c.getName(), c.getType(), c.getNullable(), Optional.ofNullable(c.getDefaultValue()),
          Optional.ofNullable(c.getComment()), c.getPrimaryKey(), Optional.ofNullable(c.getReferences()),
          List.copyOf(c.getValues())));
    }
    Map<String, Table> tables = new LinkedHashMap<>();
    tables.put(name, new Table(name, Optional.ofNullable(s.getComment()), columns, Optional.ofNullable(s.getModule())));
    // A self-reference is both outgoing and incoming: keep it once.
    Map<String, ForeignKey> fks = new LinkedHashMap<>();
    for (ForeignKeyRef r : concat(s.getForeignKeys(), s.getReferencedBy())) {
      String from = PgCatalogReader.modelName(r.getFromSchema(), r.getFromTable());
      String to = PgCatalogReader.modelName(r.getToSchema(), r.getToTable());
      fks.putIfAbsent(from + "\u0000" + r.getConstraintName(), new ForeignKey(r.getConstraintName(), from, r.getFromColumns(), to, r.getToColumns()));
      for (String n : List.of(from, to)) {
        tables.putIfAbsent(n, new Table(n, Optional.empty(), List.of(), Optional.empty()));
      }
    }
    return new SchemaModel(s.getDatabaseId(), tables.values(), fks.values());
  }

  private static List<ForeignKeyRef> concat(List<ForeignKeyRef> a, List<ForeignKeyRef> b) {
    List<ForeignKeyRef> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
