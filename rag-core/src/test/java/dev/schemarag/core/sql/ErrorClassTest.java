package dev.schemarag.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorClassTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "08006, INFRA_FAILURE", "08001, INFRA_FAILURE", "53100, INFRA_FAILURE", "53200, INFRA_FAILURE", "54000, INFRA_FAILURE",
      "58030, INFRA_FAILURE", "F0000, INFRA_FAILURE", "XX000, INFRA_FAILURE",
      "57014, QUERY_TIMEOUT", "57P01, INFRA_FAILURE", "57P02, INFRA_FAILURE", "57P03, INFRA_FAILURE",
      "42501, VALIDATION_BLOCK", "25006, VALIDATION_BLOCK",
      "42601, SQL_ERROR", "42P01, SQL_ERROR", "42703, SQL_ERROR", "42P09, SQL_ERROR", "42804, SQL_ERROR", "42883, SQL_ERROR",
      "42803, SQL_ERROR", "22012, SQL_ERROR", "22P02, SQL_ERROR",
      "40001, UNKNOWN", "23505, UNKNOWN", "42P07, UNKNOWN"})
  void sqlStatesMapToTheirClass(String sqlState, ErrorClass expected) {
    assertThat(ErrorClass.ofSqlState(sqlState)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} retries {1}")
  @CsvSource({"INFRA_FAILURE, NEVER", "QUERY_TIMEOUT, ONCE_SIMPLER", "VALIDATION_BLOCK, NEVER", "SQL_ERROR, REPAIR",
      "GENERATOR_UNAVAILABLE, NEVER", "UNKNOWN, NEVER"})
  void onlyTimeoutsAndSqlErrorsAreRetried(ErrorClass c, ErrorClass.Retry retry) {
    assertThat(c.retry()).isEqualTo(retry);
  }

  @org.junit.jupiter.api.Test
  void missingOrMalformedStatesAreUnknown() {
    assertThat(ErrorClass.ofSqlState(null)).isEqualTo(ErrorClass.UNKNOWN);
    assertThat(ErrorClass.ofSqlState("4")).isEqualTo(ErrorClass.UNKNOWN);
    assertThat(ErrorClass.QUERY_TIMEOUT.label()).isEqualTo("query_timeout");
  }
}
