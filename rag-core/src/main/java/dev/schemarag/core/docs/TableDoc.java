package dev.schemarag.core.docs;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The content of one {@code <table>.md} schema doc. */
public record TableDoc(String table, Optional<String> purpose, Optional<String> businessContext,
                       Map<String, ColumnDoc> columns, List<QueryPattern> queryPatterns,
                       List<String> relationships, List<String> relatedTables,
                       List<String> examples, Optional<String> notes) {

  public TableDoc {
    purpose = purpose.filter(s -> !s.isBlank());
    businessContext = businessContext.filter(s -> !s.isBlank());
    columns = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(columns));
    queryPatterns = List.copyOf(queryPatterns);
    relationships = List.copyOf(relationships);
    relatedTables = List.copyOf(relatedTables);
    examples = List.copyOf(examples);
    notes = notes.filter(s -> !s.isBlank());
  }

  /** A column's documented facts (each optional). */
  public record ColumnDoc(String name, Optional<String> type, Optional<String> description, Optional<String> domain,
                          Optional<Boolean> nullable, Optional<String> notes) {}

  /** A documented query: "golden SQL" with what it is for. */
  public record QueryPattern(String name, String sql, Optional<String> useCase, Optional<String> returns) {}
}
