package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.indexer.TableIndexer;
import dev.schemarag.core.schema.SchemaJsonLoader;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.events.index.IndexUpdate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./schemarag bench index}: initial-index throughput of the live pipeline (ingest snapshots
 * → Kafka → indexer: chunk, embed, pgvector) on a fresh stack, so nothing comes from the embedding
 * cache. The sample ERP database by default, or a schema description (the benchmark JSON format)
 * loaded into PostgreSQL as DDL. Also times the embedding model alone on the same texts, to show
 * whether the model or the rest of the pipeline bounds the rate. With {@code --reindex}, a second
 * indexer (a new application id, so no chunk hashes) then indexes the same snapshots again with
 * the embedding cache warm and the chunks already stored: the re-index rate.
 */
@Command(name = "index", description = "Initial-index throughput (chunks/s) of the live pipeline on a fresh stack.")
final class IndexBench implements Callable<Integer> {

  private static final String SCHEMA = "bench_index";
  static final int MODEL_PROBE = 512;
  private static final int WARMUP_BATCHES = 4;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--schema", description = "a schema description in the benchmark JSON format (default: the sample ERP database)")
  Path schemaFile;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  @Option(names = "--reindex", description = "then re-index the same snapshots with a fresh indexer state and the embedding cache warm")
  boolean reindex;

  @Option(names = "--pg-name", defaultValue = "index-bench",
      description = "name of the throwaway local PostgreSQL cluster (removed afterwards; default ${DEFAULT-VALUE})")
  String pgName;

  @Override
  public Integer call() throws Exception {
    Main main = (Main) spec.parent().parent().userObject();
    SchemaragConfig base = main.config();
    Path work = Files.createTempDirectory("schemarag-index-bench");
    boolean sample = schemaFile == null;
    String schemas = sample ? SampleDatabase.schemasCsv() : SCHEMA;
    String databaseId = sample ? SampleDatabase.DATABASE_ID : SCHEMA;
    SchemaragConfig config = base.with(Map.of("database.id", databaseId, "catalog.schemas", schemas,
        "indexer.application.id", "schemarag-index-bench-" + System.currentTimeMillis(), "indexer.state.dir", work.resolve("streams").toString(),
        "docs.root", work.resolve("docs").toString(), "local.dir", work.resolve("stack").toString(), "local.pg.name", pgName));
    if (config.optional(ConfigKeys.DB_URL).isPresent()) {
      throw new IllegalArgumentException("bench index measures a fresh stack with an empty embedding cache: unset db.url");
    }
    try (LocalStack stack = LocalStack.startFresh(config, LocalStackState.at(config), System.out)) {
      ConnectionSource db = ConnectionSource.of(stack.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
      long t0 = System.nanoTime();
      String source;
      if (sample) {
        SampleDatabase.loadWithDocs(db, SampleDatabase.DEFAULT_DIR, work.resolve("docs"));
        source = "sample ERP database";
      } else {
        SchemaDdl.Ddl ddl = SchemaDdl.of(SchemaJsonLoader.load(schemaFile), SCHEMA);
        try (Connection c = db.open(); Statement s = c.createStatement()) {
          c.setAutoCommit(false);
          for (String sql : ddl.statements()) {
            s.execute(sql);
          }
          c.commit();
        }
        source = schemaFile.getFileName() + " (" + ddl.skippedForeignKeys() + " foreign keys the description cannot make were left out)";
      }
      SchemaModel model = new PgCatalogReader(db).read(databaseId, List.of(schemas.split(",")));
      System.out.printf("loaded %s: %d tables in %.1f s%n", source, model.size(), (System.nanoTime() - t0) / 1e9);

      List<Chunk> chunks = Chunker.chunkAll(model, Map.of());
      double modelBefore = modelTextsPerSecond(config, chunks);
      System.out.printf("embedding model alone: %.0f texts/s%n", modelBefore);

      BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
      long start = System.nanoTime();
      long startWallMs = System.currentTimeMillis();
      LivePipeline.InitialIndex initial;
      TableIndexer.Timings timings;
      double vectorIndexes;
      try (LivePipeline pipeline = LivePipeline.start(config, stack.dbUrl, stack.bootstrapServers, updates::add)) {
        initial = LivePipeline.awaitTables(updates, model.size(), start);
        timings = pipeline.indexerTimings();
        vectorIndexes = pipeline.awaitVectorIndexes(start, VECTOR_INDEX_TIMEOUT);
      }
      // The model again after the pipeline: on a shared machine its rate drifts, so both are kept.
      double modelAfter = modelTextsPerSecond(config, chunks);
      System.out.printf("embedding model alone, after the pipeline: %.0f texts/s%n", modelAfter);
      // From the first snapshot record (its broker timestamp) to the last table indexed: the
      // pipeline's own rate, without the start-up of the services and of Debezium.
      long firstSnapshotMs = LivePipeline.firstRecordTimeMs(config, stack.bootstrapServers, stack.catalog.tables().name());
      double fromSnapshot = (startWallMs + initial.seconds() * 1000 - firstSnapshotMs) / 1000.0;
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("source", sample ? "erp" : schemaFile.toString());
      figures.putAll(initialIndexFigures(initial, timings, fromSnapshot, modelBefore, modelAfter, vectorIndexes));
      if (reindex) {
        figures.put("reindex", reindex(config, work, stack, model.size()));
      }
      String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(figures);
      System.out.println(text);
      if (json != null) {
        Files.writeString(json, text);
        System.out.println("written to " + json);
      }
      return 0;
    }
  }

  /**
   * The figures of an initial index: its size, times and rates, the rate from the first snapshot
   * record ({@code fromSnapshot} seconds until the last table), the model's own rate (the mean of
   * a probe before and one after) and the indexer's account of its time.
   */
  /** How long a bench waits for the HNSW indexes after the last table is indexed. */
  static final java.time.Duration VECTOR_INDEX_TIMEOUT = java.time.Duration.ofMinutes(15);

  /**
   * @param vectorIndexSeconds from the pipeline's start until the HNSW indexes were built (after
   *     the last table: the indexer builds them once it is quiet)
   */
  static Map<String, Object> initialIndexFigures(LivePipeline.InitialIndex initial, TableIndexer.Timings timings, double fromSnapshot,
                                                 double modelBefore, double modelAfter, double vectorIndexSeconds) {
    double modelRate = (modelBefore + modelAfter) / 2;
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("tables", initial.tables());
    figures.put("chunks", initial.chunks());
    figures.put("embedded", initial.embedded());
    figures.put("seconds", Math.round(initial.seconds() * 10) / 10.0);
    figures.put("chunks_per_s", Math.round(initial.chunks() / initial.seconds()));
    figures.put("embedded_per_s", Math.round(initial.embedded() / initial.seconds()));
    figures.put("first_table_s", Math.round(initial.firstUpdateSeconds() * 10) / 10.0);
    double steady = initial.seconds() - initial.firstUpdateSeconds();
    figures.put("chunks_per_s_after_first_table", steady > 0 ? Math.round(initial.chunks() / steady) : 0);
    double pipelineRate = initial.embedded() / fromSnapshot;
    figures.put("seconds_from_first_snapshot", Math.round(fromSnapshot * 10) / 10.0);
    figures.put("embedded_per_s_from_first_snapshot", Math.round(pipelineRate));
    figures.put("model_texts_per_s", Math.round(modelRate));
    figures.put("model_texts_per_s_before_after", List.of(Math.round(modelBefore), Math.round(modelAfter)));
    figures.put("indexer", timings(timings.sync()));
    // Robust to the machine's load: the share of the pipeline's time the model was computing.
    figures.put("model_busy_share", Math.round(timings.sync().modelNanos() / 1e9 / fromSnapshot * 100) / 100.0);
    // The model's rate inside the pipeline: same instance settings, batches and threads, under the pipeline's load.
    figures.put("model_texts_per_s_in_pipeline", timings.sync().modelNanos() == 0 ? 0
        : Math.round(initial.embedded() / (timings.sync().modelNanos() / 1e9)));
    figures.put("time_from_first_snapshot", breakdown(timings, fromSnapshot));
    figures.put("share_of_model_rate", Math.round(pipelineRate / modelRate * 100) / 100.0);
    // The target's terms: time from the first snapshot over the model-bound time (the texts embedded at the model's own rate).
    double modelBound = initial.embedded() / modelRate;
    double withIndexes = fromSnapshot + vectorIndexSeconds - initial.seconds();
    figures.put("model_bound_s", Math.round(modelBound * 10) / 10.0);
    figures.put("times_model_bound", Math.round(fromSnapshot / modelBound * 100) / 100.0);
    figures.put("vector_indexes_built_s_from_first_snapshot", Math.round(withIndexes * 10) / 10.0);
    figures.put("times_model_bound_with_vector_indexes", Math.round(withIndexes / modelBound * 100) / 100.0);
    return figures;
  }

  /**
   * A second indexer with no state re-indexes the snapshots already in Kafka: every chunk is new to
   * it, but its text is in the embedding cache and the row in pgvector.
   */
  static Map<String, Object> reindex(SchemaragConfig config, Path work, LocalStack stack, int tables) throws Exception {
    SchemaragConfig again = config.with(Map.of("indexer.application.id", "schemarag-index-bench-again-" + System.currentTimeMillis(),
        "indexer.state.dir", work.resolve("streams-again").toString()));
    BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
    long start = System.nanoTime();
    LivePipeline.InitialIndex initial;
    double running;
    TableIndexer.Timings timings;
    try (LivePipeline pipeline = LivePipeline.startIndexer(again, stack.dbUrl, stack.bootstrapServers, updates::add)) {
      running = (System.nanoTime() - start) / 1e9;
      initial = LivePipeline.awaitTables(updates, tables, start);
      timings = pipeline.indexerTimings();
    }
    double seconds = initial.seconds() - running;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("chunks", initial.chunks());
    out.put("embedded", initial.embedded());
    out.put("seconds_after_running", Math.round(seconds * 100) / 100.0);
    out.put("chunks_per_s", Math.round(initial.chunks() / seconds));
    out.put("indexer", timings(timings.sync()));
    System.out.printf("re-index with the cache warm: %d chunks (%d embedded) in %.2f s after the indexer ran: %.0f chunks/s%n",
        initial.chunks(), initial.embedded(), seconds, initial.chunks() / seconds);
    return out;
  }

  /**
   * Where the seconds from the first snapshot record to the last table went, by the indexer's own
   * account. Its embedding thread: the model; the embedding cache (one lookup per batch, the insert
   * of each group's new vectors); the rest of its batches (grouping, waiting for pgvector between
   * groups); and no batch to embed, such as before the first snapshot reaches the indexer or while
   * the stream thread fills the first batch. Beside it, the stream thread chunks and diffs each
   * table and waits for the batches it handed over to be written; the rest of its time is Kafka and
   * Streams (poll, decode, state stores, commits). pgvector's own write time (HNSW upkeep included)
   * runs beside the model on the store writer and is given apart.
   */
  static Map<String, Object> breakdown(TableIndexer.Timings t, double fromSnapshot) {
    IndexSync.Timings s = t.sync();
    double model = s.modelNanos() / 1e9;
    double cache = (s.embedNanos() - s.modelNanos()) / 1e9;
    double batchRest = Math.max(0, (t.applyNanos() - s.embedNanos()) / 1e9);
    double noBatch = Math.max(0, fromSnapshot - t.applyNanos() / 1e9);
    double prepare = t.prepareNanos() / 1e9;
    double waitedForBatches = t.waitedNanos() / 1e9;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("seconds", round2(fromSnapshot));
    out.put("model_s", round2(model));
    out.put("embedding_cache_s", round2(cache));
    out.put("of_which_lookups_s", round2(s.lookupNanos() / 1e9));
    out.put("batch_other_s", round2(batchRest));
    out.put("of_which_waited_for_pgvector_s", round2(s.waitNanos() / 1e9));
    out.put("no_batch_to_embed_s", round2(noBatch));
    out.put("stream_thread_chunk_and_diff_s", round2(prepare));
    out.put("stream_thread_waited_for_batches_s", round2(waitedForBatches));
    Map<String, Object> shares = new LinkedHashMap<>();
    shares.put("model", share(model, fromSnapshot));
    shares.put("embedding_cache", share(cache, fromSnapshot));
    shares.put("batch_other", share(batchRest, fromSnapshot));
    shares.put("no_batch_to_embed", share(noBatch, fromSnapshot));
    out.put("shares", shares);
    out.put("batches", s.applies());
    // The others were written because the input went quiet: the indexer had caught up with the snapshot.
    out.put("full_batches", t.fullBatches());
    out.put("tables_prepared", t.prepared());
    out.put("pgvector_write_s_beside_the_model", round2(s.writeNanos() / 1e9));
    out.put("pgvector_ms_per_chunk", s.chunks() == 0 ? 0 : round2(s.writeNanos() / 1e6 / s.chunks()));
    return out;
  }

  /** One line of {@link #breakdown}, for the console. */
  static String breakdownLine(Map<String, Object> b) {
    @SuppressWarnings("unchecked")
    Map<String, Object> shares = (Map<String, Object>) b.get("shares");
    return String.format(java.util.Locale.ROOT, "where the %.1f s from the first snapshot went, on the embedding thread: model %.0f %%,"
            + " embedding cache %.0f %%, rest of the batches %.0f %%, no batch to embed %.0f %% (%d batches, %d of them full);"
            + " beside it the stream thread chunked and diffed for %.1f s and waited for the batches it handed over for %.1f s;"
            + " pgvector wrote beside the model for %.1f s, %.2f ms per chunk",
        b.get("seconds"), pct(shares.get("model")), pct(shares.get("embedding_cache")), pct(shares.get("batch_other")),
        pct(shares.get("no_batch_to_embed")), b.get("batches"), b.get("full_batches"), b.get("stream_thread_chunk_and_diff_s"),
        b.get("stream_thread_waited_for_batches_s"), b.get("pgvector_write_s_beside_the_model"), b.get("pgvector_ms_per_chunk"));
  }

  private static double pct(Object share) {
    return ((Number) share).doubleValue() * 100;
  }

  private static double share(double part, double whole) {
    return whole <= 0 ? 0 : Math.round(part / whole * 1000) / 1000.0;
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /**
   * The indexer's own account: time embedding (cache lookups included; of it, the model), time
   * writing pgvector (beside the next group's embedding; of it, what the indexer waited for), store
   * transactions and their mean size.
   */
  static Map<String, Object> timings(IndexSync.Timings t) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("embed_s", Math.round(t.embedNanos() / 1e7) / 100.0);
    out.put("of_which_model_s", Math.round(t.modelNanos() / 1e7) / 100.0);
    out.put("pgvector_write_s", Math.round(t.writeNanos() / 1e7) / 100.0);
    out.put("of_which_waited_for_s", Math.round(t.waitNanos() / 1e7) / 100.0);
    out.put("store_writes", t.batches());
    out.put("chunks_per_store_write", t.batches() == 0 ? 0 : Math.round(t.chunks() / (double) t.batches()));
    return out;
  }

  /**
   * What the model is timed on: {@link #MODEL_PROBE} texts spread evenly over the schema's distinct
   * texts, as the indexer embeds each distinct text once (the embedding cache serves the repeats).
   * Taken over every chunk instead, the probe leans to the short texts many tables share (an
   * {@code id} column, {@code created_at}), which the model embeds faster than the rest.
   */
  static List<String> probeTexts(List<Chunk> chunks) {
    List<String> distinct = chunks.stream().map(Chunk::embedText).distinct().toList();
    int n = Math.min(MODEL_PROBE, distinct.size());
    List<String> probe = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      probe.add(distinct.get((int) ((long) i * distinct.size() / n)));
    }
    return probe;
  }

  /**
   * The model's own rate on texts of this schema, as the indexer calls it: the same model settings,
   * {@code embedding.batch.size} batches and threads, on a fresh instance. It is warmed up first on
   * {@link #WARMUP_BATCHES} batches of the same texts: a cold instance (ONNX session, JIT) ran at
   * a third of its rate for its first batches, which made the pipeline look faster than the model.
   */
  static double modelTextsPerSecond(SchemaragConfig config, List<Chunk> chunks) {
    int batch = config.getInt(ConfigKeys.EMBEDDING_BATCH);
    Langchain4jEmbedder embedder = Langchain4jEmbedder.create(config, batch);
    List<String> probe = probeTexts(chunks);
    embedder.embedAll(probe.subList(0, Math.min(WARMUP_BATCHES * batch, probe.size())));
    long t0 = System.nanoTime();
    embedder.embedAll(probe);
    return probe.size() / ((System.nanoTime() - t0) / 1e9);
  }

}
