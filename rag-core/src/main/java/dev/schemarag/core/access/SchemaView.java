package dev.schemarag.core.access;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.sql.SqlGuard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one database role may read of a schema: the tables with at least one readable column, and
 * those columns (table privileges and column privileges alike, as PostgreSQL's
 * {@code has_column_privilege} answers). A packet built on a restricted model and chunks never
 * names anything else.
 *
 * @param role the role this view is of
 * @param columns readable columns by table (model names, e.g. {@code sales.orders})
 */
public record SchemaView(String role, Map<String, Set<String>> columns) {

  public SchemaView {
    Map<String, Set<String>> copy = new HashMap<>();
    columns.forEach((t, cs) -> {
      if (!cs.isEmpty()) {
        copy.put(t, Set.copyOf(cs));
      }
    });
    columns = Map.copyOf(copy);
  }

  public boolean canRead(String table) {
    return columns.containsKey(table);
  }

  public boolean canRead(String table, String column) {
    Set<String> cs = columns.get(table);
    return cs != null && cs.contains(column);
  }

  /** Whether the role reads every table and column of {@code model}: then nothing needs restricting. */
  public boolean covers(SchemaModel model) {
    for (Table t : model.tables()) {
      Set<String> cs = columns.get(t.name());
      if (cs == null || !t.columns().stream().allMatch(c -> cs.contains(c.name()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The model as this role sees it: hidden tables and columns gone, and with them every foreign
   * key touching them; a readable column that references a hidden table no longer says so.
   */
  public SchemaModel restrict(SchemaModel model) {
    List<Table> tables = new ArrayList<>();
    for (Table t : model.tables()) {
      if (!canRead(t.name())) {
        continue;
      }
      List<Column> cols = new ArrayList<>();
      for (Column c : t.columns()) {
        if (canRead(t.name(), c.name())) {
          cols.add(c.references().filter(this::canReadColumnRef).isPresent() || c.references().isEmpty() ? c
              : new Column(c.name(), c.type(), c.nullable(), c.defaultValue(), c.comment(), c.primaryKey(), Optional.empty(), c.values()));
        }
      }
      tables.add(new Table(t.name(), t.comment(), cols, t.module()));
    }
    List<ForeignKey> fks = model.foreignKeys().stream().filter(this::canRead).toList();
    return new SchemaModel(model.databaseId(), tables, fks);
  }

  /** A foreign key is visible when every column of both ends is. */
  public boolean canRead(ForeignKey fk) {
    return fk.fromColumns().stream().allMatch(c -> canRead(fk.fromTable(), c))
        && fk.toColumns().stream().allMatch(c -> canRead(fk.toTable(), c));
  }

  /** {@code table.column} as {@link Column#references()} writes it; the table name may itself hold a dot. */
  private boolean canReadColumnRef(String ref) {
    int dot = ref.lastIndexOf('.');
    return dot > 0 && canRead(ref.substring(0, dot), ref.substring(dot + 1));
  }

  /**
   * Whether a chunk may be searched and shown under this view: its table readable; a column
   * chunk's column readable; a relationship chunk's related tables all readable (its text joins
   * them); a query pattern's SQL reading only readable tables. Examples and other kinds go with
   * their table.
   */
  public boolean keeps(Chunk c) {
    if (!canRead(c.table())) {
      return false;
    }
    return switch (c.kind()) {
      case COLUMN -> c.column().map(col -> canRead(c.table(), col)).orElse(false);
      case RELATIONSHIP -> c.relatedTables().stream().allMatch(this::canRead);
      case QUERY -> SqlGuard.check(Chunker.patternSql(c), columns.keySet(), 1).allowed();
      default -> true;
    };
  }
}
