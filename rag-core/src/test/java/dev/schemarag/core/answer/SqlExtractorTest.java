package dev.schemarag.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlExtractorTest {

  @Test
  void takesTheSqlFenceFirst() {
    assertThat(SqlExtractor.extract("Sure!\n```\nnot this\n```\n```sql\nSELECT 1\n```")).contains("SELECT 1");
  }

  @Test
  void takesAnyFenceWhenNoneIsMarkedSql() {
    assertThat(SqlExtractor.extract("```\nSELECT a FROM t\n```\nThis returns a.")).contains("SELECT a FROM t");
  }

  @Test
  void takesBareSqlUpToTheFirstBlankLine() {
    assertThat(SqlExtractor.extract("The query is: with x as (select 1) select * from x;\n\nIt selects x.")).contains("with x as (select 1) select * from x;");
  }

  @Test
  void aBareWriteIsExtractedSoThatTheGuardBlocksIt() {
    assertThat(SqlExtractor.extract("DELETE FROM orders")).contains("DELETE FROM orders");
  }

  @Test
  void aDeclineIsReadAsTheModelsReasonOnOneLineAndNeverAsSql() {
    String reply = "NO ANSWER: the tables hold orders and customers,\ndo not hold weather forecasts.";
    assertThat(SqlExtractor.declined(reply)).contains("the tables hold orders and customers, do not hold weather forecasts.");
    assertThat(SqlExtractor.declined("  **No answer:** nothing here tracks share prices")).contains("nothing here tracks share prices");
    assertThat(SqlExtractor.declined("NO ANSWER:")).contains("the model gave no reason");
    assertThat(SqlExtractor.declined("NO ANSWER: " + "x".repeat(1000)).orElseThrow()).hasSize(SqlExtractor.MAX_REASON_CHARS + 1);
  }

  @Test
  void aReplyThatStartsWithSqlOrSaysNoAnswerLaterIsNoDecline() {
    assertThat(SqlExtractor.declined("```sql\nSELECT 1\n```\nNO ANSWER: just kidding")).isEmpty();
    assertThat(SqlExtractor.declined("SELECT 'NO ANSWER: none' AS x")).isEmpty();
    assertThat(SqlExtractor.declined("I cannot answer that.")).isEmpty();
    assertThat(SqlExtractor.declined(null)).isEmpty();
  }

  @Test
  void aReplyWithoutSqlGivesNothing() {
    assertThat(SqlExtractor.extract("I cannot answer that.")).isEmpty();
    assertThat(SqlExtractor.extract(null)).isEmpty();
  }

  @Test
  void aReplyThatStartsWithAnyStatementIsExtractedSoThatTheGuardBlocksIt() {
    assertThat(SqlExtractor.extract("SET statement_timeout = 0")).contains("SET statement_timeout = 0");
    assertThat(SqlExtractor.extract("  show search_path")).contains("show search_path");
    assertThat(SqlExtractor.extract("CALL refresh_all()")).contains("CALL refresh_all()");
    // inside prose, SET is a word: the SELECT is the SQL
    assertThat(SqlExtractor.extract("Here is the result set: SELECT 1")).contains("SELECT 1");
  }
}
