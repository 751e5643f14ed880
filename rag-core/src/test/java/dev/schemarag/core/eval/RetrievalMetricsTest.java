package dev.schemarag.core.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schemarag.core.retrieval.PacketTable;
import dev.schemarag.core.retrieval.RankedTable;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetrievalMetricsTest {

  private static SchemaContextPacket packet(List<String> ranking, List<String> tables) {
    return new SchemaContextPacket("db", "q",
        tables.stream().map(t -> new PacketTable(t, t + " ()", 1, "retrieval", Optional.empty(), List.of(), 10)).toList(),
        List.of(), List.of(), List.of(), false, ranking.stream().map(t -> new RankedTable(t, 1, false)).toList(),
        Map.of("schema_tokens", 100L), Map.of(), List.of());
  }

  @Test
  void recallPrecisionMrrAndColumnsAreComputedAsDefined() {
    RetrievalMetrics m = new RetrievalMetrics();
    // q1: gold a,b; ranking b,x,a; packet b,x
    m.add(new BenchQuestion("1", "q1", List.of("a", "b"), List.of("a.c1", "b.c2")), packet(List.of("b", "x", "a"), List.of("b", "x")), 5);
    // q2: gold c; ranking c; packet c
    m.add(new BenchQuestion("2", "q2", List.of("c"), List.of()), packet(List.of("c"), List.of("c")), 15);

    assertThat(m.recallAt(1)).isCloseTo((0.5 + 1) / 2, within(1e-9));
    assertThat(m.recallAt(3)).isCloseTo(1.0, within(1e-9));
    assertThat(m.mrr()).isCloseTo(1.0, within(1e-9));
    assertThat(m.packetRecall()).isCloseTo(2.0 / 3, within(1e-9));
    assertThat(m.packetPrecision()).isCloseTo(2.0 / 3, within(1e-9));
    assertThat(m.allGoldRate()).isCloseTo(0.5, within(1e-9));
    assertThat(m.avgPacketTables()).isCloseTo(1.5, within(1e-9));
    assertThat(m.columnRecallInPacket()).isCloseTo(0.5, within(1e-9));
    assertThat(m.latencyPercentile(50)).isEqualTo(5);
    assertThat(m.latencyPercentile(99)).isEqualTo(15);
    assertThat(m.toJson(100)).containsKeys("questions", "table_recall_at_k", "packet_table_recall", "packet_table_precision",
        "packet_table_f1", "packet_all_gold_rate", "packet_avg_tables", "column_recall_in_packet", "mrr", "latency_ms",
        "index_chunks_per_s");
  }

  @Test
  void offTopicQuestionsCountOnlyTowardsAbstention() {
    RetrievalMetrics m = new RetrievalMetrics();
    m.add(new BenchQuestion("1", "weather in Paris", List.of(), List.of()), packet(List.of("a"), List.of()), 1);
    m.add(new BenchQuestion("2", "a poem", List.of(), List.of()), packet(List.of("a"), List.of("a")), 1);
    m.add(new BenchQuestion("3", "orders", List.of("sales.orders"), List.of("sales.orders.order_id")), packet(List.of(), List.of()), 1);
    m.add(new BenchQuestion("4", "lines", List.of("sales.orders"), List.of("sales.orders.total")),
        packet(List.of("sales.orders"), List.of("sales.orders")), 1);
    assertThat(m.offTopicQuestions()).isEqualTo(2);
    assertThat(m.offTopicRefusedRate()).isCloseTo(0.5, within(1e-9));
    assertThat(m.questions()).isEqualTo(2);
    assertThat(m.inScopeRefusedRate()).isCloseTo(0.5, within(1e-9));
    assertThat(m.packetRecall()).isCloseTo(0.5, within(1e-9));
    // schema-qualified gold columns: the table is everything before the last dot
    assertThat(m.columnRecallInPacket()).isCloseTo(0.5, within(1e-9));
  }

  private static SchemaContextPacket timed(List<String> tables, double embedMs, double denseMs) {
    return new SchemaContextPacket("db", "q",
        tables.stream().map(t -> new PacketTable(t, t + " ()", 1, "retrieval", Optional.empty(), List.of(), 10)).toList(),
        List.of(), List.of(), List.of(), false, List.of(), Map.of("schema_tokens", 100L), Map.of("embed", embedMs, "dense", denseMs),
        List.of());
  }

  @Test
  void stageTimesAreOverEveryQuestionTimedOffTopicIncluded() {
    RetrievalMetrics m = new RetrievalMetrics();
    m.add(new BenchQuestion("1", "orders", List.of("a"), List.of()), timed(List.of("a"), 4, 10), 14);
    for (int i = 0; i < 19; i++) {
      // Off-topic questions are embedded and searched like any other: their time counts.
      m.add(new BenchQuestion("o" + i, "weather", List.of(), List.of()), timed(List.of(), 2, i == 18 ? 50 : 1), 3);
    }
    assertThat(m.meanStageMs()).containsEntry("embed", 2.1).containsEntry("dense", (10 + 18 + 50) / 20.0);
    assertThat(m.stagePercentileMs(95)).containsEntry("embed", 2.0).containsEntry("dense", 10.0);
    assertThat(m.stagePercentileMs(100)).containsEntry("dense", 50.0);
  }

  @Test
  void theReportHoldsTheCurveAndTheHistogram() {
    RetrievalMetrics m = new RetrievalMetrics();
    m.add(new BenchQuestion("1", "q", List.of("a"), List.of()), packet(List.of("a"), List.of("a")), 3);
    String html = HtmlReport.render("t", m, 10);
    assertThat(html).contains("Table recall@k").contains("<polyline").contains("Retrieval latency").contains("<rect");
  }
}
