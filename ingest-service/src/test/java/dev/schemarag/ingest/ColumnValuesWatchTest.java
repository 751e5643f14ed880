package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ColumnValuesWatchTest {

  private static Table table(String name, List<String> priorities) {
    return new Table(name, Optional.empty(), List.of(Column.of("id", "int"), Column.of("priority", "text").withValues(priorities)),
        Optional.of("support"));
  }

  private final SchemaModel model = new SchemaModel("erp", List.of(table("support.tickets", List.of("high", "low")),
      table("support.teams", List.of())), List.of());

  @Test
  void onlyTheTablesWhoseValuesMovedSinceTheyWerePublishedAreDue() {
    ColumnValuesWatch watch = new ColumnValuesWatch();
    watch.published(model, List.of("support.tickets", "support.teams"));
    assertThat(watch.moved(Map.of("support.tickets", Map.of("priority", List.of("high", "low"))))).isEmpty();
    // A new value, values where there were none, values gone.
    assertThat(watch.moved(Map.of("support.tickets", Map.of("priority", List.of("urgent", "high", "low")))))
        .containsExactly("support.tickets");
    assertThat(watch.moved(Map.of("support.tickets", Map.of("priority", List.of("high", "low")), "support.teams",
        Map.of("priority", List.of("Tier 1"))))).containsExactly("support.teams");
    assertThat(watch.moved(Map.of())).containsExactly("support.tickets");
  }

  @Test
  void aTablePublishedAgainOrGoneIsComparedWithWhatWasPublishedLast() {
    ColumnValuesWatch watch = new ColumnValuesWatch();
    watch.published(model, List.of("support.tickets"));
    SchemaModel later = new SchemaModel("erp", List.of(table("support.tickets", List.of("urgent"))), List.of());
    watch.published(later, List.of("support.tickets"));
    assertThat(watch.moved(Map.of("support.tickets", Map.of("priority", List.of("urgent"))))).isEmpty();
    watch.gone("support.tickets");
    assertThat(watch.moved(Map.of())).isEmpty();
    // A table the model does not hold is not recorded.
    watch.published(later, List.of("support.nowhere"));
    assertThat(watch.moved(Map.of())).isEmpty();
  }
}
