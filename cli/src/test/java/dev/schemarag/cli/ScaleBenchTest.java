package dev.schemarag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleBenchTest {

  /** A run's figures, every one of them {@code value}. */
  private static Map<String, Object> run(int tables, double value) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("tables", tables);
    r.put("query_index_load_s", value);
    for (String group : List.of("initial_index", "memory", "pgvector", "freshness", "first_question_after_change")) {
      r.put(group, figures(value));
    }
    Map<String, Object> retrieval = new LinkedHashMap<>();
    for (String set : List.of("spider-union", "bird-union", "all")) {
      retrieval.put(set, figures(value));
    }
    r.put("retrieval", retrieval);
    return r;
  }

  private static Map<String, Object> figures(double value) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String key : List.of("first_table_s", "seconds", "chunks", "embedded", "embedded_per_s_from_first_snapshot", "model_texts_per_s",
        "heap_after_gc_mb_pipeline_idle", "query_index_heap_mb", "peak_rss_mb", "chunks_table_mb", "chunks_indexes_mb", "p50_ms", "p95_ms",
        "packet_recall", "packet_f1")) {
      m.put(key, value);
    }
    return m;
  }

  @Test
  void growthNamesEverySizeAndTheFactorOverTheFirst() {
    String table = ScaleBench.growth(List.of(run(1000, 40), run(3000, 120), run(10000, 400)));
    assertThat(table).contains("1000 tables", "3000 tables", "10000 tables");
    assertThat(table.lines().filter(l -> l.startsWith("all tables indexed (s)")).findFirst().orElseThrow())
        .contains("40.0", "120 (x3.00)", "400 (x10.00)");
    assertThat(table).contains("spider-union packet recall", "freshness p95 (ms)", "query-side index heap (MB)");
  }
}
