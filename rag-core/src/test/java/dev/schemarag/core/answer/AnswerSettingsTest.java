package dev.schemarag.core.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AnswerSettingsTest {

  @Test
  void aQuestionsMaxRowsIsCappedByTheServersLimit() {
    AnswerEngine.Settings s = AnswerEngine.Settings.DEFAULT;
    assertThat(s.maxRowsLimit()).isEqualTo(100_000);
    assertThat(s.withMaxRows(2_000_000_000).maxRows()).isEqualTo(100_000);
    assertThat(s.withMaxRows(50).maxRows()).isEqualTo(50);
    assertThat(s.withMaxRows(0).maxRows()).isEqualTo(1);
  }

  @Test
  void aDefaultAboveTheLimitIsRefusedByName() {
    assertThatThrownBy(() -> new AnswerEngine.Settings(3, 5_000, 20, 0.7, 1_000))
        .hasMessage("answer.max.rows (5000) must not exceed answer.max.rows.limit (1000)");
  }
}
