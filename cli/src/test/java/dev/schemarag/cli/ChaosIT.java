package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.config.SchemaragConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The chaos suite, short: two rounds of kill -9 to the ingest, indexer and query services, the
 * broker and PostgreSQL under a stream of changes and questions, on a process stack of its own; then
 * a second query service and indexer. Nothing may be lost, nothing dead-lettered by an outage, and
 * no question left without an outcome. Tagged {@code chaos}: part of {@code mvn verify} (failsafe
 * groups {@code integration,chaos}), and on its own with {@code -Dit.groups=chaos -Dit.test=ChaosIT}
 * (README, "Chaos").
 */
@Tag("chaos")
class ChaosIT {

  /** Under target, not a temporary folder: the stack's process logs stay for reading when the run fails. */
  private static final Path LOCAL_DIR = Path.of("target", "chaos-it").toAbsolutePath();

  @Test
  @SuppressWarnings("unchecked")
  void killedProcessesLoseNoChangeAndLeaveNoQuestionWithoutAnOutcomeAndASecondInstanceTakesOver() throws Exception {
    // the environment of this JVM (a test cluster's SCHEMARAG_DB_URL) is not the stack's
    SchemaragConfig config = SchemaragConfig.load(Optional.empty(), Map.of(), Map.of());
    dev.schemarag.infra.Files2.deleteTree(LOCAL_DIR);
    ChaosRun.Settings settings = new ChaosRun.Settings(2, 7, Duration.ofSeconds(3), Duration.ofMillis(1000), Duration.ofMillis(700), 10, true,
        Duration.ofMinutes(4));

    Map<String, Object> figures = ChaosBench.run(config, LOCAL_DIR, Path.of("..").toAbsolutePath().normalize(),
        "chaos-it-" + ProcessHandle.current().pid(), settings, System.out);

    Map<String, Object> single = (Map<String, Object>) figures.get("single_instance");
    assertThat((Map<String, Integer>) single.get("kills_per_process"))
        .containsOnlyKeys("ingest-service", "indexer-service", "query-service", "kafka", "postgresql").allSatisfy((p, n) -> assertThat(n).isEqualTo(2));
    assertThat((List<Map<String, Object>>) single.get("kills")).hasSize(10).allSatisfy(k -> assertThat((Long) k.get("recovery_ms")).isPositive());
    assertThat((int) single.get("questions_published")).isPositive();
    assertThat((int) single.get("questions_answered")).isPositive();
    assertThat((int) single.get("index_chunks")).isPositive();
    assertThat(((Map<String, Integer>) single.get("changes_applied")).values().stream().mapToInt(Integer::intValue).sum()).isPositive();
    assertThat(figures.get("ddl_changes_lost")).isEqualTo(0);
    assertThat(figures.get("questions_unanswered")).isEqualTo(0);
    assertThat(figures.get("index_dead_letters")).as("nothing dead-lettered by an outage: %s", figures.get("index_dead_letter_reasons")).isEqualTo(0);
    assertThat(figures).containsKeys("duplicate_answers", "recovery_ms");

    Map<String, Object> two = (Map<String, Object>) figures.get("two_instances");
    assertThat((Map<String, Object>) two.get("assigned_partitions_with_2")).as("each instance holds partitions")
        .containsOnlyKeys("query-service", "query-service-2", "indexer-service", "indexer-service-2")
        .allSatisfy((p, n) -> assertThat((Integer) n).isPositive());
    assertThat((Map<String, Long>) two.get("query_takeover_ms")).as("the second query service took every partition and answered while the first was dead")
        .allSatisfy((what, ms) -> assertThat(ms).as(what).isPositive());
    assertThat((Map<String, Long>) two.get("indexer_takeover_ms")).as("the second indexer took every partition and indexed while the first was dead")
        .allSatisfy((what, ms) -> assertThat(ms).as(what).isPositive());
    assertThat((Map<String, Object>) two.get("throughput_qps")).containsKeys("1", "2");
  }
}
