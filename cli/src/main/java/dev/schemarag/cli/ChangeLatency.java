package dev.schemarag.cli;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.embed.InMemoryEmbeddingCache;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.retrieval.DenseSearch;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.query.QueryServices;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The first question after a one-table change, as the query service meets it: a table gains a
 * described column; its chunks are written to the store as the indexer would (not timed); then,
 * timed, the update the follower of index events makes (the table's chunks read back from the store,
 * applied to the loaded index as a new version, and that version warmed with the last question
 * asked), and the next question, answered from that version. Questions never wait for an update,
 * so the update counts in freshness, not in the question's latency. Tables are spread over the
 * schema, one per change, each change on the index the last one left.
 */
final class ChangeLatency {

  /** The samples, and the latency of questions on the index every change has been applied to (deleted documents, small segments). */
  record Outcome(List<Sample> samples, List<Double> afterMs, double fullLoadMs) {}

  /** One change: reading its chunks, applying it, warming the new version, and the question after it. */
  record Sample(String table, double readMs, double applyMs, double applyCpuMs, double warmMs, double questionMs) {
    double updateMs() {
      return readMs + applyMs + warmMs;
    }
  }

  /** Questions asked again once every change is applied. */
  static final int STEADY_AFTER = 300;

  /** The apply's CPU time besides its wall time: on a machine shared with other work, the steadier figure. */
  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

  private ChangeLatency() {}

  static Outcome measure(SchemaIndex start, PgChunkStore store, Embedder chunkEmbedder, Embedder questionEmbedder,
                              DenseSearch dense, RetrievalSettings settings, List<String> questions, int changes) throws Exception {
    SchemaIndex index = start;
    List<Table> tables = new ArrayList<>(start.model().tables());
    tables.sort(java.util.Comparator.comparing(Table::name));
    String db = start.model().databaseId();
    IndexSync sync = new IndexSync(store, new CachingEmbedder(chunkEmbedder, new InMemoryEmbeddingCache()), 32);
    List<Sample> out = new ArrayList<>();
    // As the query service's follower does: each new version answers the last question once before it is served.
    SchemaIndexCache.Warmer warmer = QueryServices.warmer(questionEmbedder, settings);
    for (int i = 0; i < changes; i++) {
      Table before = tables.get((int) ((long) i * tables.size() / changes) % tables.size());
      Table table = index.model().table(before.name()).orElse(before);
      List<Column> columns = new ArrayList<>(table.columns());
      columns.add(Column.of("bench_note_" + i, "text").withComment("remark number " + i + " added by the change benchmark"));
      Table changed = new Table(table.name(), table.comment(), columns, table.module());
      SchemaModel next = index.model().withTables(Map.of(changed.name(), Optional.of(changed)), index.model().edges(changed.name()));
      List<Chunk> chunks = Chunker.chunk(next, Optional.of(changed), Optional.empty());
      // The indexer's part: embed and write the table's chunks.
      sync.sync(db, Optional.of(changed.name()), chunks, System.currentTimeMillis(), n -> { });

      long t0 = System.nanoTime();
      // As the query service reads a changed table: with its texts' vectors when the index holds them.
      PgChunkStore.ChunksWithVectors stored = store.load(db, List.of(changed.name()), index.vectors().isPresent());
      long t1 = System.nanoTime();
      long cpu = THREADS.getCurrentThreadCpuTime();
      index = index.withTables(List.of(new SchemaIndex.TableChange(changed.name(), Optional.of(changed), next.edges(changed.name()),
          stored.chunks(), stored.vectors())));
      long t2 = System.nanoTime();
      double applyCpuMs = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e6;
      warmer.warm(index, questions.get((i + questions.size() - 1) % questions.size()));
      long t3 = System.nanoTime();
      new SchemaRetriever(index, index.denseOr(dense), questionEmbedder, settings).retrieve(questions.get(i % questions.size()));
      long t4 = System.nanoTime();
      out.add(new Sample(changed.name(), (t1 - t0) / 1e6, (t2 - t1) / 1e6, applyCpuMs, (t3 - t2) / 1e6, (t4 - t3) / 1e6));
    }
    SchemaRetriever retriever = new SchemaRetriever(index, index.denseOr(dense), questionEmbedder, settings);
    List<Double> after = new ArrayList<>();
    for (String q : questions.subList(0, Math.min(questions.size(), STEADY_AFTER))) {
      long s = System.nanoTime();
      retriever.retrieve(q);
      after.add((System.nanoTime() - s) / 1e6);
    }
    // What a change cost before: the database's index loaded again in full (every chunk read, everything built).
    long f0 = System.nanoTime();
    new SchemaIndex(index.model(), store.load(db), settings);
    double fullLoadMs = (System.nanoTime() - f0) / 1e6;
    return new Outcome(out, after, fullLoadMs);
  }

  static double percentile(List<Double> values, double p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, idx)));
  }

  /** The figures: per part and in total, p50 / p95 / max, beside the steady p95 of questions. */
  static Map<String, Object> figures(Outcome outcome, double steadyP95) {
    List<Sample> samples = outcome.samples();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("changes", samples.size());
    m.put("read_ms", stats(samples.stream().map(Sample::readMs).toList()));
    m.put("apply_ms", stats(samples.stream().map(Sample::applyMs).toList()));
    m.put("apply_cpu_ms", stats(samples.stream().map(Sample::applyCpuMs).toList()));
    m.put("warm_ms", stats(samples.stream().map(Sample::warmMs).toList()));
    m.put("update_ms", stats(samples.stream().map(Sample::updateMs).toList()));
    m.put("first_question_after_change_ms", stats(samples.stream().map(Sample::questionMs).toList()));
    m.put("steady_p95_ms", round(steadyP95));
    m.put("questions_after_changes_ms", stats(outcome.afterMs()));
    m.put("full_load_ms", round(outcome.fullLoadMs()));
    return m;
  }

  private static Map<String, Double> stats(List<Double> values) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("p50", round(percentile(values, 50)));
    m.put("p95", round(percentile(values, 95)));
    m.put("max", round(values.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
    return m;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  static void print(Map<String, Object> f) {
    System.out.printf(Locale.ROOT, "one-table changes             %s%n", f.get("changes"));
    for (String k : List.of("read_ms", "apply_ms", "apply_cpu_ms", "warm_ms", "update_ms", "first_question_after_change_ms", "questions_after_changes_ms")) {
      @SuppressWarnings("unchecked")
      Map<String, Double> s = (Map<String, Double>) f.get(k);
      System.out.printf(Locale.ROOT, "  %-32s p50 %.1f / p95 %.1f / max %.1f%n", k, s.get("p50"), s.get("p95"), s.get("max"));
    }
    System.out.printf(Locale.ROOT, "  steady question p95 ms           %.1f%n", (Double) f.get("steady_p95_ms"));
    System.out.printf(Locale.ROOT, "  full load of the index ms        %.1f (chunks read, index built: what each change cost before)%n",
        (Double) f.get("full_load_ms"));
  }
}
