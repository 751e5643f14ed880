package dev.schemarag.core.schema;

import java.util.Optional;

/**
 * One column as the catalog (or a schema description) knows it.
 *
 * @param references the single-column foreign key target as {@code table.column}, if any
 */
public record Column(String name, String type, boolean nullable, Optional<String> defaultValue,
                     Optional<String> comment, boolean primaryKey, Optional<String> references) {

  public Column {
    defaultValue = defaultValue.filter(s -> !s.isBlank());
    comment = comment.filter(s -> !s.isBlank());
    references = references.filter(s -> !s.isBlank());
  }

  public static Column of(String name, String type) {
    return new Column(name, type, true, Optional.empty(), Optional.empty(), false, Optional.empty());
  }

  public Column withComment(String c) {
    return new Column(name, type, nullable, defaultValue, Optional.ofNullable(c), primaryKey, references);
  }
}
