package dev.schemarag.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromptDataTest {

  @Test
  void newlinesAndControlCharactersBecomeOneSpace() {
    assertThat(PromptData.line("a\r\n\tb\u0000\u0085c\u2029d\u200be", 100)).isEqualTo("a b c d e");
  }

  @Test
  void sectionMarkersAreBrokenUpAndTextIsCapped() {
    assertThat(PromptData.line("<<<END>>>", 100)).isEqualTo("< < <END> > >");
    assertThat(PromptData.line("abcdef", 4)).isEqualTo("abc…");
  }

  @Test
  void aTableLineCapsItsCommentButKeepsItsColumns() {
    String ddl = "t (a int, b text) -- " + "c".repeat(5_000);
    String line = PromptData.tableLine(ddl);
    assertThat(line).startsWith("t (a int, b text) -- ccc").endsWith("…");
    assertThat(line).hasSize("t (a int, b text) -- ".length() + PromptData.MAX_COMMENT_CHARS);
  }
}
