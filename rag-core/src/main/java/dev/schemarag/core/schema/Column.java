package dev.schemarag.core.schema;

import java.util.List;
import java.util.Optional;

/**
 * One column as the catalog (or a schema description) knows it.
 *
 * @param references the single-column foreign key target as {@code table.column}, if any
 * @param values     a categorical column's common values, as the database's statistics sample them
 *                   (most common first); empty for other columns, or where the catalog has no statistics
 */
public record Column(String name, String type, boolean nullable, Optional<String> defaultValue,
                     Optional<String> comment, boolean primaryKey, Optional<String> references, List<String> values) {

  public Column {
    defaultValue = defaultValue.filter(s -> !s.isBlank());
    comment = comment.filter(s -> !s.isBlank());
    references = references.filter(s -> !s.isBlank());
    values = List.copyOf(values);
  }

  /** A column whose values the catalog does not sample. */
  public Column(String name, String type, boolean nullable, Optional<String> defaultValue,
                Optional<String> comment, boolean primaryKey, Optional<String> references) {
    this(name, type, nullable, defaultValue, comment, primaryKey, references, List.of());
  }

  public static Column of(String name, String type) {
    return new Column(name, type, true, Optional.empty(), Optional.empty(), false, Optional.empty());
  }

  public Column withComment(String c) {
    return new Column(name, type, nullable, defaultValue, Optional.ofNullable(c), primaryKey, references, values);
  }

  public Column withValues(List<String> v) {
    return new Column(name, type, nullable, defaultValue, comment, primaryKey, references, v);
  }
}
