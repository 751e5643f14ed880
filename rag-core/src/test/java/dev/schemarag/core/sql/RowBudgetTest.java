package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowBudgetTest {

  private static final RowBudget.Limits SMALL = new RowBudget.Limits(1_000, 100);

  @Test
  void rowsWithinBothCapsAreKeptWhole() {
    RowBudget b = new RowBudget(5, SMALL);
    assertThat(b.offer(List.of("1", "Acme"))).isTrue();
    assertThat(b.offer(Arrays.asList("2", null))).isTrue();
    assertThat(b.rows()).containsExactly(List.of("1", "Acme"), Arrays.asList("2", null));
    assertThat(b.truncated()).isFalse();
    assertThat(b.bytes()).isEqualTo(4 * 4 + "1Acme2".length());
  }

  @Test
  void rowsPastTheByteBudgetAreLeftOutAndNoLaterRowIsKept() {
    RowBudget b = new RowBudget(1_000, SMALL);
    String ninety = "x".repeat(90);
    int kept = 0;
    for (int i = 0; i < 50; i++) {
      if (b.offer(List.of(ninety))) {
        kept++;
      }
    }
    assertThat(kept).isEqualTo(1_000 / 94);
    assertThat(b.bytes()).isLessThanOrEqualTo(1_000);
    assertThat(b.truncated()).isTrue();
    // a small row after the budget ran out stays out: the rows are a prefix of the result
    assertThat(b.offer(List.of("1"))).isFalse();
    assertThat(b.rows()).hasSize(kept);
  }

  @Test
  void rowsPastThePreviewRowsMakeTheAnswerTruncated() {
    RowBudget b = new RowBudget(2, SMALL);
    b.offer(List.of("a"));
    b.offer(List.of("b"));
    assertThat(b.truncated()).isFalse();
    assertThat(b.offer(List.of("c"))).isFalse();
    assertThat(b.truncated()).isTrue();
  }

  @Test
  void aHugeValueIsCutToTheValueCapWithItsSizeNamed() {
    RowBudget b = new RowBudget(20, RowBudget.Limits.DEFAULT);
    assertThat(b.offer(List.of("x".repeat(3_000_000)))).isTrue();
    String cut = b.rows().get(0).get(0);
    assertThat(RowBudget.utf8Length(cut)).isLessThanOrEqualTo(RowBudget.Limits.DEFAULT.maxValueBytes());
    assertThat(cut).startsWith("xxxx").endsWith("…[3000000 bytes, cut]");
    assertThat(b.truncated()).isTrue();
  }

  @Test
  void cuttingNeverSplitsACharacter() {
    String emoji = "😀".repeat(100); // 4 bytes each, two chars each
    String cut = RowBudget.cut(emoji, 64);
    assertThat(RowBudget.utf8Length(cut)).isLessThanOrEqualTo(64);
    String kept = cut.substring(0, cut.indexOf('…'));
    assertThat(kept.codePoints()).containsOnly("😀".codePointAt(0));
    assertThat(RowBudget.cut("é".repeat(10), 64)).isEqualTo("é".repeat(10));
  }

  @Test
  void utf8LengthCountsBytesNotChars() {
    assertThat(RowBudget.utf8Length("abc")).isEqualTo(3);
    assertThat(RowBudget.utf8Length("é")).isEqualTo(2);
    assertThat(RowBudget.utf8Length("€")).isEqualTo(3);
    assertThat(RowBudget.utf8Length("😀")).isEqualTo(4);
  }

  @Test
  void theDefaultBudgetKeepsAnAnswerFarBelowTheBrokersRecordLimit() {
    RowBudget b = new RowBudget(1_000_000, RowBudget.Limits.DEFAULT);
    List<String> wide = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      wide.add("y".repeat(5_000));
    }
    for (int i = 0; i < 10_000 && b.offer(wide); i++) {
      // until the budget is spent
    }
    assertThat(b.bytes()).isLessThanOrEqualTo(RowBudget.Limits.DEFAULT.maxBytes()).isLessThan(1_048_576 / 2);
    assertThat(b.truncated()).isTrue();
  }

  @Test
  void fetchesHoldFewerRowsTheWiderTheRowsAre() {
    assertThat(RowBudget.fetchRows(0)).isEqualTo(RowBudget.FIRST_FETCH_ROWS);
    assertThat(RowBudget.fetchRows(20)).isEqualTo(RowBudget.MAX_FETCH_ROWS);
    assertThat(RowBudget.fetchRows(3_000_004)).isEqualTo(1);
    assertThat(RowBudget.fetchRows(100_000)).isEqualTo((int) (RowBudget.FETCH_BYTES / 100_000));
  }

  @Test
  void limitsThatCannotHoldOneValueAreRefusedByName() {
    assertThatThrownBy(() -> new RowBudget.Limits(100, 200)).hasMessageContaining("answer.max.bytes (100)")
        .hasMessageContaining("answer.max.value.bytes (200)");
    assertThatThrownBy(() -> new RowBudget.Limits(1000, 10)).hasMessageContaining("answer.max.value.bytes must be at least 64");
  }
}
