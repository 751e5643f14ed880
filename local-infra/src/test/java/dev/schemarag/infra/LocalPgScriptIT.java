package dev.schemarag.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class LocalPgScriptIT {

  private final LocalPostgres pg = new LocalPostgres("it-script-" + UUID.randomUUID().toString().substring(0, 8));

  @AfterEach
  void purge() {
    pg.purge();
  }

  @Test
  void startedTwiceIsStillOneClusterAndStopLeavesNoProcess() {
    String url1 = pg.start();
    long pid1 = pg.pid().orElseThrow();
    String url2 = pg.start();
    long pid2 = pg.pid().orElseThrow();

    assertThat(url2).isEqualTo(url1);
    assertThat(pid2).isEqualTo(pid1);
    assertThat(ProcessHandles.running(pid1)).isTrue();

    pg.stop();

    assertThat(pg.running()).isFalse();
    assertThat(ProcessHandles.running(pid1)).as("postmaster %d still running", pid1).isFalse();
  }

  @Test
  void restartedAfterStopServesAgain() throws Exception {
    pg.start();
    pg.stop();
    String url = pg.start();
    try (var c = java.sql.DriverManager.getConnection(url); var s = c.createStatement();
         var rs = s.executeQuery("SHOW wal_level")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("logical");
    }
  }
}
