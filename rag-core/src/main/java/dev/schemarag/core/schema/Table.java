package dev.schemarag.core.schema;

import java.util.List;
import java.util.Optional;

/**
 * One table. {@code name} is the model's key for it (schema-qualified where the model spans
 * several schemas); {@code module} groups related tables (an ERP module, a source database).
 */
public record Table(String name, Optional<String> comment, List<Column> columns, Optional<String> module) {

  public Table {
    comment = comment.filter(s -> !s.isBlank());
    columns = List.copyOf(columns);
    module = module.filter(s -> !s.isBlank());
  }

  public Optional<Column> column(String columnName) {
    return columns.stream().filter(c -> c.name().equalsIgnoreCase(columnName)).findFirst();
  }

  public List<String> primaryKey() {
    return columns.stream().filter(Column::primaryKey).map(Column::name).toList();
  }
}
