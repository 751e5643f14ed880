package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PgTextTest {

  @Test
  void unicodeEscapedIdentifiersAreDecodedAsPostgresDecodesThem() throws Exception {
    assertThat(PgText.canonical("SELECT U&\"pg\\005fsleep\"(1)").text()).isEqualTo("SELECT \"pg_sleep\"(1)");
    assertThat(PgText.canonical("SELECT u&\"pg\\+00005Fsleep\"(1)").text()).isEqualTo("SELECT \"pg_sleep\"(1)");
    assertThat(PgText.canonical("SELECT U&\"pg!005fsleep\" UESCAPE '!' (1)").text()).isEqualTo("SELECT \"pg_sleep\" (1)");
    assertThat(PgText.canonical("SELECT U&'a\\0027b'").text()).isEqualTo("SELECT 'a''b'");
    assertThat(PgText.canonical("SELECT U&\"a\\\\b\"").text()).isEqualTo("SELECT \"a\\b\"");
  }

  @Test
  void commentsNestAndVanishAndDollarQuotesBecomeStandardStrings() throws Exception {
    PgText.Canonical c = PgText.canonical("/* a /* nested */ comment */ SELECT $tag$it's$tag$, 1 -- done");
    assertThat(c.text()).isEqualTo("  SELECT 'it''s', 1  ");
    assertThat(c.firstWord()).isEqualTo("SELECT");
    assertThat(c.strings()).containsExactly("it''s");
  }

  @Test
  void aBackslashIsAPlainCharacterInAStandardString() throws Exception {
    PgText.Canonical c = PgText.canonical("SELECT '\\', pg_sleep(10) --'");
    assertThat(c.strings()).containsExactly("\\");
    assertThat(c.text()).contains("pg_sleep(10)");
  }

  @Test
  void aNameAfterAQualifierIsQuotedAsPostgresFoldsItButNumbersAreLeftAlone() throws Exception {
    assertThat(PgText.canonical("SELECT o.Total, 1.5, 1.e5 FROM Sales . Returns o").text())
        .isEqualTo("SELECT o.\"total\", 1.5, 1.e5 FROM Sales . \"returns\" o");
  }

  @Test
  void unsafeOrBrokenTextIsRejectedWithTheReason() {
    assertThatThrownBy(() -> PgText.canonical("SELECT E'\\''")).hasMessageContaining("E'…' escape strings");
    assertThatThrownBy(() -> PgText.canonical("SELECT 'open")).hasMessageContaining("never closed");
    assertThatThrownBy(() -> PgText.canonical("SELECT 1 /* open /* */")).hasMessageContaining("never closed");
    assertThatThrownBy(() -> PgText.canonical("SELECT $$open")).hasMessageContaining("never closed");
    assertThatThrownBy(() -> PgText.canonical("SELECT 1; DELETE FROM t")).hasMessageContaining("exactly one statement");
    assertThatThrownBy(() -> PgText.canonical("SELECT U&\"\\zz\"")).hasMessageContaining("invalid unicode escape");
  }

  @Test
  void namesResolveAsPostgresResolvesThem() {
    assertThat(PgText.qualifiedName("PG_CATALOG.\"PG_SLEEP\"")).isEqualTo(List.of("pg_catalog", "PG_SLEEP"));
    assertThat(PgText.qualifiedName("\"a.b\".c")).isEqualTo(List.of("a.b", "c"));
    assertThat(PgText.qualifiedName("\"say \"\"hi\"\"\"")).isEqualTo(List.of("say \"hi\""));
  }
}
