package dev.schemarag.core.schema;

import java.util.List;

/** A foreign key between two tables of one schema model (table names as the model keys them). */
public record ForeignKey(String name, String fromTable, List<String> fromColumns, String toTable, List<String> toColumns) {

  public ForeignKey {
    fromColumns = List.copyOf(fromColumns);
    toColumns = List.copyOf(toColumns);
  }

  /** {@code from.a = to.b AND ...}: the join condition. */
  public String joinCondition() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fromColumns.size(); i++) {
      if (i > 0) {
        sb.append(" AND ");
      }
      sb.append(fromTable).append('.').append(fromColumns.get(i)).append(" = ")
          .append(toTable).append('.').append(toColumns.get(Math.min(i, toColumns.size() - 1)));
    }
    return sb.toString();
  }

  public String other(String table) {
    return table.equals(fromTable) ? toTable : fromTable;
  }
}
