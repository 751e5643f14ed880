package dev.schemarag.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two runs of one local cluster each stop it when done, under the other: a run claims its cluster,
 * and a second claim is refused while the first is held, in another process or this one.
 */
@Tag("integration")
class LocalPostgresClaimIT {

  /** The clusters these tests named, whose claim files they remove when done (a run's own claim file stays). */
  private final List<String> names = new ArrayList<>();

  private String freshName() {
    String name = "claim-it-" + UUID.randomUUID().toString().substring(0, 8);
    names.add(name);
    return name;
  }

  @AfterEach
  void removeClaimFiles() throws Exception {
    for (String name : names) {
      Files.deleteIfExists(new LocalPostgres(name).claimFile());
    }
  }

  @Test
  void aClusterClaimedByAnotherProcessIsRefusedUntilThatProcessEnds() throws Exception {
    String name = freshName();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ClaimHolder.class.getName(), name)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("claimed");

      assertThatThrownBy(() -> new LocalPostgres(name).claim()).isInstanceOf(LocalInfraException.class)
          .hasMessageContaining("'" + name + "' is in use by another schemarag run").hasMessageContaining("--pg-name");

      holder.getOutputStream().close();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      try (LocalPostgres.Claim claim = new LocalPostgres(name).claim()) {
        assertThat(claim).isNotNull();
      }
    } finally {
      holder.destroyForcibly();
    }
  }

  @Test
  void aSecondClaimInOneProcessIsRefusedAndAReleasedClaimCanBeTakenAgain() {
    String name = freshName();
    try (LocalPostgres.Claim first = new LocalPostgres(name).claim()) {
      assertThat(first).isNotNull();
      assertThatThrownBy(() -> new LocalPostgres(name).claim()).isInstanceOf(LocalInfraException.class)
          .hasMessageContaining("'" + name + "' is in use");
    }
    try (LocalPostgres.Claim again = new LocalPostgres(name).claim()) {
      assertThat(again).isNotNull();
    }
  }
}
