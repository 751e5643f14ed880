package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerPrinterTest {

  @Test
  void aResultTableAlignsItsColumnsShowsNullsAndCutsLongCells() {
    String table = AnswerPrinter.table(List.of("customer", "spent"),
        List.of(List.of("Acme", "150"), Arrays.asList("x".repeat(60), null)));
    List<String> lines = table.lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo(" customer" + " ".repeat(AnswerPrinter.MAX_WIDTH - "customer".length()) + " | spent");
    assertThat(lines.get(1)).startsWith(" " + "-".repeat(AnswerPrinter.MAX_WIDTH) + "-+-");
    assertThat(lines.get(3)).contains("x".repeat(AnswerPrinter.MAX_WIDTH - 1) + "…").endsWith("| NULL");
    assertThat(lines.get(2).indexOf('|')).isEqualTo(lines.get(0).indexOf('|'));
  }

  @Test
  void theRowSummarySaysHowManyRowsTheAnswerCarriesAndWhetherValuesWereCut() {
    assertThat(AnswerPrinter.rowSummary(3, 3, false, 12)).isEqualTo("(3 rows; 12 ms)");
    assertThat(AnswerPrinter.rowSummary(50_000, 504, true, 900)).isEqualTo("(50000 rows, 504 shown; 900 ms)");
    assertThat(AnswerPrinter.rowSummary(1, 1, true, 40)).isEqualTo("(1 row, long values cut; 40 ms)");
  }
}
