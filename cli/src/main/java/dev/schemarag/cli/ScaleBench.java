package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.eval.BenchQuestion;
import dev.schemarag.core.eval.RetrievalMetrics;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaIndexCache;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaJsonLoader;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.query.QueryServices;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgDenseSearch;
import dev.schemarag.core.store.PooledConnections;
import dev.schemarag.indexer.TableIndexer;
import dev.schemarag.events.index.IndexUpdate;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./schemarag bench scale}: the live pipeline on a database of N tables. The spider-union
 * and bird-union schemas go in as DDL with their descriptions as comments (each benchmark database
 * in a schema of its own), and generated enterprise modules fill up to N tables as distractors (after the
 * whole modules of any schemas {@code --distractor-schemas} gives, public enterprise schemas say). On
 * a fresh stack (empty embedding cache) it measures the initial index beside the model's own rate,
 * the JVM's memory, the pgvector sizes, retrieval latency and packet quality on a seeded sample of
 * the benchmarks' dev questions, freshness of schema changes, and the first question after a
 * change. The ingest service, the indexer and the query side's index all run in this one JVM.
 */
@Command(name = "scale", description = "The live pipeline on a database of N tables (spider-union, bird-union and generated"
    + " enterprise modules): indexing time and rate, memory, pgvector sizes, retrieval, freshness.")
final class ScaleBench implements Callable<Integer> {

  private static final String DATABASE_ID = "scale";
  private static final String PROBE_SCHEMA = "scale_probe";
  private static final String SHARED_JVM = "the ingest service, the indexer and the query side's index share this one JVM";

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--tables", split = ",", defaultValue = "10000",
      description = "tables in the database; several (e.g. 1000,3000,10000) run one after another on fresh stacks (default ${DEFAULT-VALUE})")
  List<Integer> sizes;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  @Option(names = "--dump-evidence", description = "write each measured question's packet and per-table evidence here, a JSON line each"
      + " (as eval --dump-evidence; with several sizes, each line names its size)")
  Path evidenceFile;

  @Option(names = "--questions", defaultValue = "200",
      description = "dev questions of each benchmark, a seeded sample (default ${DEFAULT-VALUE}; 0 = all)")
  int questions;

  @Option(names = "--warm-up", defaultValue = "1000",
      description = "uncounted questions before the timed ones, dev questions outside the sample, half from each benchmark:"
          + " a service answers warm, and in this JVM, which runs the pipeline too, the JIT still compiled for most of the"
          + " timed questions after 200 (default ${DEFAULT-VALUE})")
  int warmUp;

  @Option(names = "--ef-search", split = ",",
      description = "further pgvector hnsw.ef_search values to measure retrieval with, on the same index, after the configured one"
          + " (retrieval.dense.ef.search), e.g. 40,100,400")
  List<Integer> efSearch = List.of();

  @Option(names = "--changes", defaultValue = "50", description = "schema changes for the freshness figures (default ${DEFAULT-VALUE})")
  int changes;

  // Every change by default: the p95 of one question per fifth change (10 of 50) was their maximum.
  @Option(names = "--question-every", defaultValue = "1",
      description = "after every this many changes, time the first question (default ${DEFAULT-VALUE})")
  int questionEvery;

  @Option(names = "--bench", defaultValue = "../shared/bench",
      description = "folder holding spider-union/ and bird-union/ (default ${DEFAULT-VALUE})")
  Path benchDir;

  @Option(names = "--seed", defaultValue = "13", description = "seed of the generated modules and the question sample (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--distractor-schemas", split = ",",
      description = "schema descriptions (the benchmark JSON format, e.g. public enterprise schemas) whose tables stand beside the"
          + " benchmarks: whole modules (db_id), in an order --seed shuffles, each as long as it fits within N tables; generated"
          + " modules fill what they leave; a folder gives its .json and .json.gz files (data/bench/public-schemas)")
  List<Path> distractorSchemas = List.of();

  @Option(names = "--load-only",
      description = "only load the schema of the (one) --tables size into the database db.url names, and print the catalog.schemas"
          + " value that indexes it (its last line): for measuring the production topology on it with ./schemarag up")
  boolean loadOnly;

  @Option(names = "--write-sample",
      description = "only write the sampled questions of each benchmark, as the benchmark names its tables, to DIR/<set>.jsonl:"
          + " for measuring the same questions at the benchmark's own size with ./schemarag eval")
  Path sampleDir;

  @Option(names = "--pg-name", defaultValue = "scale-bench",
      description = "name of the throwaway local PostgreSQL cluster (removed afterwards; default ${DEFAULT-VALUE})")
  String pgName;

  /**
   * The benchmark schemas in one model, their sampled questions by set, the questions to warm up
   * with, and the sampled questions as their benchmark writes them (its own table names), for
   * {@code --write-sample}.
   */
  private record Benchmarks(SchemaModel model, Map<String, List<BenchQuestion>> questions, List<BenchQuestion> warmUp,
                            Map<String, List<BenchQuestion>> sampleAsWritten) {}

  @Override
  public Integer call() throws Exception {
    Main main = (Main) spec.parent().parent().userObject();
    SchemaragConfig base = main.config();
    if (loadOnly) {
      return loadOnly(base);
    }
    if (sampleDir != null) {
      return writeSample();
    }
    if (base.optional(ConfigKeys.DB_URL).isPresent()) {
      throw new IllegalArgumentException("bench scale measures a fresh stack with an empty embedding cache: unset db.url");
    }
    efSearch.forEach(PgDenseSearch::validEfSearch);
    distractorSchemas = DistractorSchemas.files(distractorSchemas);
    if (changes < 1 || questionEvery < 1 || questions < 0 || warmUp < 0) {
      throw new IllegalArgumentException("--changes and --question-every must be at least 1, --questions and --warm-up at least 0");
    }
    for (Path out : new Path[] {json, evidenceFile}) {
      if (out != null && out.toAbsolutePath().getParent() != null) {
        Files.createDirectories(out.toAbsolutePath().getParent());
      }
    }
    Benchmarks bench = loadBenchmarks();
    for (int n : sizes) {
      requireBenchmarksFit(bench, n);
    }
    List<Map<String, Object>> runs = new ArrayList<>();
    for (int n : sizes) {
      System.out.printf("%n=== %d tables ===%n", n);
      runs.add(run(base, bench, n));
      write(runs);
    }
    if (runs.size() > 1) {
      System.out.print(growth(runs));
    }
    return 0;
  }

  private void write(List<Map<String, Object>> runs) throws java.io.IOException {
    if (json == null) {
      return;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("note", SHARED_JVM);
    out.put("runs", runs);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), out);
    System.out.println("figures written to " + json);
  }

  /** {@code --write-sample}: the sampled questions in each benchmark's own names, one file per benchmark. */
  private int writeSample() throws Exception {
    Files.createDirectories(sampleDir);
    for (Map.Entry<String, List<BenchQuestion>> set : loadBenchmarks().sampleAsWritten().entrySet()) {
      Path file = sampleDir.resolve(set.getKey() + ".jsonl");
      BenchQuestion.write(file, set.getValue());
      System.out.println(set.getValue().size() + " questions written to " + file);
    }
    return 0;
  }

  private Benchmarks loadBenchmarks() throws Exception {
    List<Table> tables = new ArrayList<>();
    List<ForeignKey> fks = new ArrayList<>();
    Map<String, List<BenchQuestion>> sets = new LinkedHashMap<>();
    Map<String, List<BenchQuestion>> asWritten = new LinkedHashMap<>();
    List<BenchQuestion> warm = new ArrayList<>();
    Set<String> taken = new java.util.HashSet<>();
    for (String set : List.of("spider-union", "bird-union")) {
      Path schema = benchDir.resolve(set).resolve("schema.json");
      Path dev = benchDir.resolve(set).resolve("dev-questions.jsonl");
      if (!Files.isRegularFile(schema) || !Files.isRegularFile(dev)) {
        throw new IllegalArgumentException("the benchmark files " + schema + " and " + dev + " are needed (give --bench DIR)");
      }
      SchemaModel model = SchemaJsonLoader.load(schema);
      // A database both benchmarks hold (formula_1) keeps apart: the later one's schema gets the set's name.
      String suffix = "_" + set.substring(0, set.indexOf('-'));
      Set<String> modules = new java.util.HashSet<>();
      Map<String, Table> renamed = new HashMap<>();
      for (Table t : model.tables()) {
        String module = t.module().orElse("");
        modules.add(module);
        Table placed = taken.contains(module)
            ? new Table(module + suffix + "." + SchemaDdl.withoutModule(t.name(), module), t.comment(), t.columns(), java.util.Optional.of(module + suffix)) : t;
        renamed.put(t.name(), placed);
        tables.add(placed);
      }
      taken.addAll(modules);
      for (ForeignKey fk : model.foreignKeys()) {
        fks.add(new ForeignKey(fk.name(), renamed.get(fk.fromTable()).name(), fk.fromColumns(), renamed.get(fk.toTable()).name(),
            fk.toColumns()));
      }
      List<BenchQuestion> all = new ArrayList<>(BenchQuestion.load(dev));
      Collections.shuffle(all, new Random(seed));
      // Gold names as the catalog reads them back: each benchmark database is a schema of its own.
      int sampled = questions == 0 ? all.size() : Math.min(questions, all.size());
      sets.put(set, all.subList(0, sampled).stream().map(q -> placeGold(renamed, q)).toList());
      asWritten.put(set, List.copyOf(all.subList(0, sampled)));
      // Warmed up on questions outside the sample (on the sample itself when it takes them all).
      List<BenchQuestion> rest = sampled < all.size() ? all.subList(sampled, all.size()) : all;
      warm.addAll(rest.subList(0, Math.min(rest.size(), (warmUp + 1) / 2)));
    }
    return new Benchmarks(new SchemaModel(DATABASE_ID, tables, fks), sets, List.copyOf(warm), asWritten);
  }

  private static BenchQuestion placeGold(Map<String, Table> tables, BenchQuestion q) {
    List<String> gold = q.goldTables().stream().map(t -> placedName(tables, t)).toList();
    List<String> columns = q.goldColumns().stream().map(c -> {
      int dot = c.indexOf('.');
      return placedName(tables, c.substring(0, dot)) + c.substring(dot);
    }).toList();
    return new BenchQuestion(q.id(), q.question(), gold, columns);
  }

  private static String placedName(Map<String, Table> tables, String table) {
    Table t = tables.get(table);
    if (t == null) {
      throw new IllegalArgumentException("gold table " + table + " is not in the benchmark schema");
    }
    return SchemaDdl.placeInModule(t).modelName();
  }

  private static void requireBenchmarksFit(Benchmarks bench, int n) {
    if (n < bench.model().size()) {
      throw new IllegalArgumentException("--tables " + n + " is below the " + bench.model().size()
          + " tables of spider-union and bird-union, which are always loaded");
    }
  }

  /** The schema of N tables as DDL, its schemas (modules), and how many of them hold the benchmarks' tables. */
  private record ScaleSchema(SchemaModel model, SchemaDdl.Ddl ddl, List<String> schemas, int benchmarkSchemas, int distractorTables) {}

  private ScaleSchema schema(Benchmarks bench, int n) throws java.io.IOException {
    Set<String> benchSchemas = new LinkedHashSet<>();
    bench.model().tables().forEach(t -> benchSchemas.add(SchemaDdl.placeInModule(t).schema()));
    DistractorSchemas.Beside beside = DistractorSchemas.beside(bench.model(), distractorSchemas, seed, n - bench.model().size(), benchSchemas);
    SchemaModel full = beside.model();
    List<String> schemas = full.tables().stream().map(t -> SchemaDdl.placeInModule(t).schema()).distinct().toList();
    return new ScaleSchema(full, SchemaDdl.inModules(full), schemas, benchSchemas.size(), beside.givenTables());
  }

  /** {@code --load-only}: the schema into the database db.url names; prints its catalog.schemas value last. */
  private int loadOnly(SchemaragConfig base) throws Exception {
    if (base.optional(ConfigKeys.DB_URL).isEmpty()) {
      throw new IllegalArgumentException("--load-only loads into the database db.url (SCHEMARAG_DB_URL) names: set it");
    }
    if (sizes.size() != 1) {
      throw new IllegalArgumentException("--load-only takes one --tables size, not " + sizes);
    }
    Benchmarks bench = loadBenchmarks();
    int n = sizes.get(0);
    requireBenchmarksFit(bench, n);
    ScaleSchema schema = schema(bench, n);
    ConnectionSource db = ConnectionSource.of(base.get(ConfigKeys.DB_URL), base.get(ConfigKeys.DB_USER), base.get(ConfigKeys.DB_PASSWORD));
    long t0 = System.nanoTime();
    execute(db, schema.ddl().statements());
    System.out.printf(Locale.ROOT, "loaded %d tables in %d schemas, %d foreign keys, in %.1f s (%d foreign keys the description cannot make were left out);"
            + " index them with catalog.schemas set to the line below%n", schema.model().size(), schema.schemas().size(),
        schema.model().foreignKeys().size() - schema.ddl().skippedForeignKeys(), (System.nanoTime() - t0) / 1e9, schema.ddl().skippedForeignKeys());
    System.out.println(String.join(",", schema.schemas()));
    return 0;
  }

  private Map<String, Object> run(SchemaragConfig base, Benchmarks bench, int n) throws Exception {
    ScaleSchema scale = schema(bench, n);
    SchemaModel full = scale.model();
    SchemaDdl.Ddl ddl = scale.ddl();
    List<String> schemas = new ArrayList<>(scale.schemas());
    int modules = schemas.size();
    schemas.add(PROBE_SCHEMA);

    Path work = Files.createTempDirectory("schemarag-scale-bench");
    Map<String, String> overrides = new HashMap<>();
    overrides.put("database.id", DATABASE_ID);
    overrides.put("catalog.schemas", String.join(",", schemas));
    overrides.put("indexer.application.id", "schemarag-scale-bench-" + System.currentTimeMillis());
    overrides.put("indexer.state.dir", work.resolve("streams").toString());
    overrides.put("docs.root", work.resolve("docs").toString());
    overrides.put("local.dir", work.resolve("stack").toString());
    overrides.put("local.pg.name", pgName);
    SchemaragConfig config = base.with(overrides);
    Map<String, Object> figures = new LinkedHashMap<>();
    // Closed in reverse: the cluster stops, then its files (N tables' worth) and the streams state go; nothing is kept.
    try (AutoCloseable workDir = () -> dev.schemarag.infra.Files2.deleteTree(work);
         LocalStack stack = LocalStack.startFresh(config, LocalStackState.at(config), System.out)) {
      ConnectionSource db = ConnectionSource.of(stack.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD));
      long t0 = System.nanoTime();
      execute(db, ddl.statements());
      SchemaModel catalog = new PgCatalogReader(db).read(DATABASE_ID, schemas);
      double loadSeconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf(Locale.ROOT, "loaded %d tables in %d schemas (%d of spider-union and bird-union; %d of the given distractor schemas"
              + " and %d generated, in %d modules), %d foreign keys, in %.1f s (%d foreign keys the description cannot make were left out)%n",
          catalog.size(), modules, bench.model().size(), scale.distractorTables(), n - bench.model().size() - scale.distractorTables(),
          modules - scale.benchmarkSchemas(),
          catalog.foreignKeys().size(), loadSeconds, ddl.skippedForeignKeys());
      if (catalog.size() != n) {
        throw new IllegalStateException("the database holds " + catalog.size() + " tables, not " + n);
      }
      figures.put("tables", n);
      figures.put("tables_benchmark", bench.model().size());
      figures.put("tables_distractor", scale.distractorTables());
      figures.put("tables_generated", n - bench.model().size() - scale.distractorTables());
      figures.put("schemas", modules);
      figures.put("foreign_keys", catalog.foreignKeys().size());
      figures.put("ddl_load_s", round1(loadSeconds));

      // The model's own rate on texts spread over the whole schema, not only its first tables.
      List<Chunk> allChunks = Chunker.chunkAll(catalog, Map.of());
      double modelBefore = IndexBench.modelTextsPerSecond(config, allChunks);
      System.out.printf("embedding model alone: %.0f texts/s%n", modelBefore);

      RetrievalSettings settings = RetrievalSettings.from(config);
      // As the query service reads a changed table: on connections kept open (a new backend per update costs more than the reads).
      PooledConnections indexReads = PooledConnections.of(stack.dbUrl, config.get(ConfigKeys.DB_USER), config.get(ConfigKeys.DB_PASSWORD), 2,
          "query-index");
      java.util.concurrent.atomic.AtomicReference<QueryServices.TableReadTimes> lastRead = new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.atomic.AtomicReference<Langchain4jEmbedder> questionModel = new java.util.concurrent.atomic.AtomicReference<>();
      // The last update's warming of its new version with the last question, in ns (part of the update).
      java.util.concurrent.atomic.AtomicLong lastWarm = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong lastApplyWarm = new java.util.concurrent.atomic.AtomicLong();
      SchemaIndexCache indexes = new SchemaIndexCache(id -> {
        try {
          return IndexedSchema.fromStore(db, id, schemas, settings, config.getInt(ConfigKeys.RETRIEVAL_DENSE_MEMORY_TEXTS));
        } catch (SQLException e) {
          throw new IllegalStateException("cannot load the index of " + id + ": " + e.getMessage(), e);
        }
      }, (id, changed, withVectors) -> QueryServices.changedTables(indexReads, id, schemas, changed, withVectors, lastRead::set),
          // Nothing is asked, so nothing warmed, before the questions' model exists.
          !config.getBoolean(ConfigKeys.QUERY_INDEX_WARM) ? null : (next, question) -> {
            long w0 = System.nanoTime();
            QueryServices.warmer(questionModel.get(), settings).warm(next, question);
            lastWarm.addAndGet(System.nanoTime() - w0);
          });
      BlockingQueue<IndexUpdate> updates = new LinkedBlockingQueue<>();
      // The last probe change's apply to the loaded index (the query side's update), in ns.
      java.util.concurrent.atomic.AtomicLong lastApply = new java.util.concurrent.atomic.AtomicLong();
      // Index updates begun and done: whether a question met one still being applied (a change may bring more than one).
      java.util.concurrent.atomic.AtomicInteger updatesBegun = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger updatesDone = new java.util.concurrent.atomic.AtomicInteger();
      CpuTimes.Sample cpuAtStart = CpuTimes.sample(stack.brokerPid(), stack.postgresPid());
      long start = System.nanoTime();
      long startWallMs = System.currentTimeMillis();
      // As the query service's follower of index events does: the changed table is applied to the loaded index.
      try (LivePipeline pipeline = LivePipeline.start(config, stack.dbUrl, stack.bootstrapServers, u -> {
        long a0 = System.nanoTime();
        updatesBegun.incrementAndGet();
        if (u.getAdded() + u.getUpdated() + u.getRemoved() > 0) {
          indexes.tablesChanged(u.getDatabaseId(), List.of(PgCatalogReader.modelName(u.getSchemaName(), u.getTableName())));
        }
        if (PROBE_SCHEMA.equals(u.getSchemaName())) {
          lastApply.set(System.nanoTime() - a0);
          lastApplyWarm.set(lastWarm.getAndSet(0));
        } else {
          updates.add(u);
        }
        updatesDone.incrementAndGet();
      })) {
        LivePipeline.InitialIndex initial = LivePipeline.awaitTables(updates, n, start);
        Map<String, Object> cpu = CpuTimes.between(cpuAtStart, CpuTimes.sample(stack.brokerPid(), stack.postgresPid()));
        TableIndexer.Timings timings = pipeline.indexerTimings();
        double vectorIndexes = pipeline.awaitVectorIndexes(start, IndexBench.VECTOR_INDEX_TIMEOUT);
        Map<String, Object> disruptions = disruptions(config, stack, pipeline);
        long firstSnapshotMs = LivePipeline.firstRecordTimeMs(config, stack.bootstrapServers, stack.catalog.tables().name());
        double fromSnapshot = (startWallMs + initial.seconds() * 1000 - firstSnapshotMs) / 1000.0;
        // How long the ingest service took to send every table's snapshot: the indexer cannot be faster.
        LivePipeline.TopicSpan snapshots = LivePipeline.span(config, stack.bootstrapServers, stack.catalog.tables().name());
        double modelAfter = IndexBench.modelTextsPerSecond(config, allChunks);
        System.out.printf("embedding model alone, after the initial index: %.0f texts/s%n", modelAfter);
        Map<String, Object> index = IndexBench.initialIndexFigures(initial, timings, fromSnapshot, modelBefore, modelAfter, vectorIndexes);
        index.put("disruptions", disruptions);
        index.put("cpu", cpu);
        index.put("ingest_snapshot_records", snapshots.records());
        index.put("ingest_snapshot_s", round1((snapshots.lastMs() - snapshots.firstMs()) / 1000.0));
        figures.put("initial_index", index);
        System.out.printf(Locale.ROOT, "initial index: first table searchable after %.1f s, all %d tables (%d chunks) after %.1f s;"
                + " %d chunks/s from the first snapshot, the model alone %d texts/s (%.2f of it), the model inside the pipeline %d texts/s%n",
            initial.firstUpdateSeconds(), initial.tables(), initial.chunks(), initial.seconds(), index.get("embedded_per_s_from_first_snapshot"),
            index.get("model_texts_per_s"), (Double) index.get("share_of_model_rate"), index.get("model_texts_per_s_in_pipeline"));
        @SuppressWarnings("unchecked")
        Map<String, Object> breakdown = (Map<String, Object>) index.get("time_from_first_snapshot");
        System.out.println(IndexBench.breakdownLine(breakdown));
        System.out.println(CpuTimes.line(cpu));
        System.out.printf(Locale.ROOT, "HNSW indexes built %.1f s after the last table; from the first snapshot %.1f s to the last table and %.1f s"
                + " to the HNSW indexes: %.2f and %.2f times the model-bound %.1f s%n", vectorIndexes - initial.seconds(), fromSnapshot,
            index.get("vector_indexes_built_s_from_first_snapshot"), index.get("times_model_bound"),
            index.get("times_model_bound_with_vector_indexes"), index.get("model_bound_s"));
        System.out.printf(Locale.ROOT, "the ingest service sent %d table snapshots over %.1f s; disruptions during the initial index: %s%n",
            snapshots.records(), (snapshots.lastMs() - snapshots.firstMs()) / 1000.0, disruptions);
        // The same snapshots again through a second indexer with no state: the embedding cache is warm, the rows stored.
        figures.put("reindex_cache_warm", IndexBench.reindex(config, work, stack, n));

        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("note", SHARED_JVM);
        memory.put("max_heap_mb", mb(Runtime.getRuntime().maxMemory()));
        long pipelineHeap = heapAfterGc();
        memory.put("heap_after_gc_mb_pipeline_idle", mb(pipelineHeap));
        memory.put("rss_mb_pipeline_idle", mb(procStatus("VmRSS:")));
        figures.put("pgvector", pgvectorSizes(db));

        long l0 = System.nanoTime();
        indexes.get(DATABASE_ID);
        double indexLoad = (System.nanoTime() - l0) / 1e9;
        figures.put("query_index_load_s", round1(indexLoad));
        long withIndex = heapAfterGc();
        memory.put("heap_after_gc_mb_with_query_index", mb(withIndex));
        memory.put("query_index_heap_mb", mb(withIndex - pipelineHeap));
        memory.put("rss_mb_with_query_index", mb(procStatus("VmRSS:")));
        figures.put("memory", memory);
        System.out.printf(Locale.ROOT, "memory (%s): heap after GC %d MB with the pipeline idle, %d MB with the query side's index loaded"
                + " (%.1f s to load); RSS %d MB%n", SHARED_JVM, mb(pipelineHeap), mb(withIndex), indexLoad,
            mb(procStatus("VmRSS:")));

        Langchain4jEmbedder model = Langchain4jEmbedder.create(config);
        questionModel.set(model);
        int configuredEf = config.getInt(ConfigKeys.RETRIEVAL_EF_SEARCH);
        try (PgDenseSearch dense = new PgDenseSearch(db, DATABASE_ID, configuredEf)) {
          boolean held = indexes.get(DATABASE_ID).vectors().isPresent();
          System.out.println(held ? "retrieval with the vectors the query side holds (retrieval.dense.memory.texts):"
              : "retrieval with hnsw.ef_search " + configuredEf + ":");
          Retrieval steady;
          // Each size's rows name it; the first size's replace what the file held.
          try (EvidenceDump.Writer evidence = evidenceFile == null ? null : new EvidenceDump.Writer(evidenceFile, sizes.indexOf(n) > 0)) {
            steady = retrieval(bench, bench.warmUp(), indexes, dense, model, settings, evidence, n);
            if (evidence != null) {
              System.out.println("evidence of " + evidence.rows() + " questions written to " + evidenceFile);
            }
          }
          steady.figures().put("ef_search", configuredEf);
          steady.figures().put("vectors_held", held);
          figures.put("retrieval", steady.figures());
          double steadyP95 = steady.all().latencyPercentile(95);
          Map<String, Object> byEf = new LinkedHashMap<>();
          if (!efSearch.isEmpty() && held) {
            System.out.println("--ef-search is not measured: the query side searches the vectors it holds (retrieval.dense.memory.texts=0"
                + " searches pgvector)");
          }
          for (int ef : held ? List.<Integer>of() : efSearch) {
            try (PgDenseSearch other = new PgDenseSearch(db, DATABASE_ID, ef)) {
              System.out.printf("retrieval with hnsw.ef_search %d:%n", ef);
              // The JIT is warm by now; a short warm-up fills this connection's caches.
              byEf.put(String.valueOf(ef), retrieval(bench, bench.warmUp().subList(0, Math.min(20, bench.warmUp().size())), indexes, other,
                  model, settings, null, n).figures());
            }
          }
          if (!byEf.isEmpty()) {
            figures.put("retrieval_by_ef_search", byEf);
          }

          SchemaChanges probe = new SchemaChanges(db, DATABASE_ID, PROBE_SCHEMA);
          probe.createProbe();
          probe.awaitProbe(dense, model, Duration.ofSeconds(120));
          List<BenchQuestion> asked = bench.questions().values().iterator().next();
          List<Double> afterChange = new ArrayList<>();
          List<Double> overSameQuestion = new ArrayList<>();
          List<Double> applies = new ArrayList<>();
          List<Double> catalogReads = new ArrayList<>();
          List<Double> chunkReads = new ArrayList<>();
          List<Double> inMemory = new ArrayList<>();
          List<Double> warmings = new ArrayList<>();
          List<Integer> updatesBeside = new ArrayList<>();
          System.out.printf("%d schema changes beside %d tables:%n", changes, n);
          List<SchemaChanges.Measured> measured = probe.apply(changes, dense, model, (i, made) -> {
            // The change must be in the query side's index, and no index update being applied: a change can bring more than
            // one (a statement each), and a question beside an update shares the cores with it. Checked after each update.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int checkedAt = -1;
            boolean reached = false;
            while (!reached && System.nanoTime() < deadline) {
              int done = updatesDone.get();
              if (done != checkedAt) {
                checkedAt = done;
                reached = updatesBegun.get() == done && made.foundIn(indexes.get(DATABASE_ID).denseOr(dense));
              }
              if (!reached) {
                Thread.sleep(2);
              }
            }
            if (!reached) {
              throw new IllegalStateException("change " + (i + 1) + " did not reach the query side's index within 30 s");
            }
            if (i % questionEvery != questionEvery - 1) {
              return;
            }
            BenchQuestion question = asked.get(i % asked.size());
            int pendingBefore = updatesBegun.get() - updatesDone.get();
            int begunBefore = updatesBegun.get();
            // Read before and after, outside the timed stretch: who held the cores while the question ran.
            long askingThread = CoreWaits.currentThreadId();
            CoreWaits.Sample coresBefore = CoreWaits.sample(stack.brokerPid(), stack.postgresPid());
            CoreWaits.Times selfBefore = CoreWaits.self();
            long q0 = System.nanoTime();
            // The follower has put the new version in place; a question never waits for an update.
            var packet = retrieverOf(indexes.get(DATABASE_ID), dense, model, settings).retrieve(question.question());
            double ms = (System.nanoTime() - q0) / 1e6;
            CoreWaits.Times selfAfter = CoreWaits.self();
            String cores = CoreWaits.between(coresBefore, selfBefore, selfAfter, CoreWaits.sample(stack.brokerPid(), stack.postgresPid()),
                askingThread, "lexical-search", 3);
            int beside = pendingBefore + updatesBegun.get() - begunBefore;
            updatesBeside.add(beside);
            indexes.asked(DATABASE_ID, question.question());
            double apply = lastApply.get() / 1e6;
            double warmMs = lastApplyWarm.get() / 1e6;
            afterChange.add(ms);
            // Questions differ in cost (length, candidates): the same question's steady time is the fairer yardstick.
            double sameSteady = steady.msById().getOrDefault(question.id(), Double.NaN);
            overSameQuestion.add(ms - sameSteady);
            applies.add(apply);
            QueryServices.TableReadTimes read = lastRead.get();
            double catalogMs = read == null ? 0 : read.catalogNanos() / 1e6;
            double chunksMs = read == null ? 0 : read.chunksNanos() / 1e6;
            catalogReads.add(catalogMs);
            chunkReads.add(chunksMs);
            warmings.add(warmMs);
            inMemory.add(Math.max(0, apply - catalogMs - chunksMs - warmMs));
            StringBuilder stages = new StringBuilder();
            packet.timingsMs().forEach((stage, t) -> stages.append(String.format(Locale.ROOT, " %s %.1f", stage, t)));
            // The JVM's uptime when it was asked: to line it up with a GC or safepoint log (-Xlog:gc*,safepoint::uptime).
            long askedAtMs = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() - Math.round(ms);
            System.out.printf(Locale.ROOT, "       first question after it (JVM uptime %d ms): %.0f ms, %.0f ms steady; stages (ms)%s%n"
                + "         the follower's index update before it %.0f ms: catalog read %.1f ms, chunk read %.1f ms, new index version %.1f ms,"
                + " warming it with the last question %.1f ms; index updates applied beside the question %d%n"
                + "         %s%n",
                askedAtMs, ms, sameSteady, stages, apply, catalogMs, chunksMs, Math.max(0, apply - catalogMs - chunksMs - warmMs), warmMs, beside,
                cores);
          });
          Map<String, Object> freshness = SchemaChanges.figures(measured);
          figures.put("freshness", freshness);
          Map<String, Object> first = new LinkedHashMap<>();
          first.put("questions", afterChange.size());
          first.put("p50_ms", round1(percentile(afterChange, 50)));
          first.put("p95_ms", round1(percentile(afterChange, 95)));
          first.put("max_ms", round1(Collections.max(afterChange)));
          first.put("steady_p95_ms", round1(steadyP95));
          first.put("over_the_same_question_steady_ms", Map.of("p50", round1(percentile(overSameQuestion, 50)),
              "p95", round1(percentile(overSameQuestion, 95)), "max", round1(Collections.max(overSameQuestion))));
          first.put("index_update_p50_ms", round1(percentile(applies, 50)));
          // Questions that met another index update being applied as they ran (a change can bring two).
          first.put("questions_beside_an_index_update", updatesBeside.stream().filter(k -> k > 0).count());
          first.put("index_update_max_ms", round1(Collections.max(applies)));
          // The update's three steps, as the query service runs them for one changed table.
          first.put("index_update_steps_p50_ms", Map.of("catalog_read", round1(percentile(catalogReads, 50)),
              "chunk_read", round1(percentile(chunkReads, 50)), "new_index_version", round1(percentile(inMemory, 50)),
              "warming", round1(percentile(warmings, 50))));
          first.put("index_update_steps_max_ms", Map.of("catalog_read", round1(Collections.max(catalogReads)),
              "chunk_read", round1(Collections.max(chunkReads)), "new_index_version", round1(Collections.max(inMemory)),
              "warming", round1(Collections.max(warmings))));
          figures.put("first_question_after_change", first);
          System.out.printf(Locale.ROOT, "freshness over %d changes: p50 %d ms, p95 %d ms; first question after a change: p50 %.0f ms,"
                  + " p95 %.0f ms, max %.0f ms (%d questions) vs steady p95 %.1f ms; over the same question's steady time: p50 %+.1f ms,"
                  + " p95 %+.1f ms, max %+.1f ms%n", changes, freshness.get("p50_ms"), freshness.get("p95_ms"),
              percentile(afterChange, 50), percentile(afterChange, 95), Collections.max(afterChange), afterChange.size(), steadyP95,
              percentile(overSameQuestion, 50), percentile(overSameQuestion, 95), Collections.max(overSameQuestion));
          // The same questions on the index the updates left: its lexical segments now hold deleted documents, which
          // every later question's BM25 statistics must count out, and its vectors a tail beside the graphs.
          System.out.println("retrieval after the changes (the same questions, the index as its updates left it):");
          figures.put("retrieval_after_changes", retrieval(bench, List.of(), indexes, dense, model, settings, null, n).figures());
        }
        memory.put("heap_after_gc_mb_end", mb(heapAfterGc()));
        memory.put("peak_rss_mb", mb(procStatus("VmHWM:")));
      } finally {
        indexReads.close();
      }
    }
    return figures;
  }

  /**
   * What could have interrupted the initial index: rebalances of the indexer once it ran, stream
   * threads replaced after a failure (a timed-out transaction), records in the dead-letter topics.
   */
  private static Map<String, Object> disruptions(SchemaragConfig config, LocalStack stack, LivePipeline pipeline) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("rebalances", pipeline.indexer().rebalances());
    out.put("stream_thread_failures", pipeline.indexer().threadFailures());
    var topics = stack.catalog;
    long dlq = 0;
    for (String topic : List.of(topics.dlq(topics.tables()).name(), topics.dlq(topics.docs()).name())) {
      dlq += LivePipeline.span(config, stack.bootstrapServers, topic).records();
    }
    out.put("dlq_records", dlq);
    return out;
  }

  /** A retriever over the index as the query service makes one: the index's own vectors when it holds them, else pgvector's. */
  private static SchemaRetriever retrieverOf(SchemaIndex index, PgDenseSearch dense, Langchain4jEmbedder model, RetrievalSettings settings) {
    return new SchemaRetriever(index, index.denseOr(dense), model, settings);
  }

  /** Collections so far and their accumulated time (ms), over every collector of this JVM. */
  private static long[] collections() {
    long count = 0;
    long ms = 0;
    for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      ms += Math.max(0, gc.getCollectionTime());
    }
    return new long[] {count, ms};
  }

  /** The JIT compilers' accumulated time (ms), or -1 when this JVM does not report it (so is the difference then). */
  private static long compilationMs() {
    java.lang.management.CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
  }

  /** What one retrieval pass measured: its figures for the JSON, every question's metrics together, and each question's latency by id. */
  private record Retrieval(Map<String, Object> figures, RetrievalMetrics all, Map<String, Double> msById) {}

  /**
   * Retrieval over the sampled questions of each benchmark, after a warm-up.
   *
   * @param evidence where each measured question's evidence row goes, or null
   * @param tables the size each evidence row names
   */
  private static Retrieval retrieval(Benchmarks bench, List<BenchQuestion> warmUp, SchemaIndexCache indexes, PgDenseSearch dense,
                                   Langchain4jEmbedder model, RetrievalSettings settings, EvidenceDump.Writer evidence, int tables) {
    for (BenchQuestion q : warmUp) {
      retrieverOf(indexes.get(DATABASE_ID), dense, model, settings).retrieve(q.question());
    }
    SchemaIndex.preloadNameWordVectors(model, () -> false);
    RetrievalMetrics all = new RetrievalMetrics();
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Double> msById = new HashMap<>();
    long[] gcBefore = collections();
    long jitBefore = compilationMs();
    for (Map.Entry<String, List<BenchQuestion>> set : bench.questions().entrySet()) {
      RetrievalMetrics metrics = new RetrievalMetrics();
      for (BenchQuestion q : set.getValue()) {
        long s = System.nanoTime();
        // As the query service asks: the loaded index of the database, a retriever per question.
        SchemaIndex index = indexes.get(DATABASE_ID);
        SchemaRetriever.Result result = new SchemaRetriever(index, index.denseOr(dense), model, settings).retrieveWithEvidence(q.question(), settings);
        double ms = (System.nanoTime() - s) / 1e6;
        // As the query service does: the last question asked warms the next version of the index.
        indexes.asked(DATABASE_ID, q.question());
        var packet = result.packet();
        if (evidence != null) {
          Map<String, Object> row = new LinkedHashMap<>(Map.of("tables", tables));
          row.putAll(EvidenceDump.row(q, result, index));
          row.put("set", set.getKey());
          evidence.write(row);
        }
        metrics.add(q, packet, ms);
        all.add(q, packet, ms);
        msById.put(q.id(), ms);
      }
      out.put(set.getKey(), quality(metrics));
      System.out.printf(Locale.ROOT, "%-13s %d questions: packet recall / precision / F1 %.3f / %.3f / %.3f; latency p50 / p95 / p99"
              + " %.1f / %.1f / %.1f ms%n", set.getKey(), metrics.questions(), metrics.packetRecall(), metrics.packetPrecision(),
          metrics.packetF1(), metrics.latencyPercentile(50), metrics.latencyPercentile(95), metrics.latencyPercentile(99));
    }
    long[] gcAfter = collections();
    long jitMs = jitBefore < 0 ? -1 : compilationMs() - jitBefore;
    out.put("all", quality(all));
    out.put("warmup_questions", warmUp.size());
    // The pipeline shares this JVM: its collections pause the questions too, and show in their tail.
    out.put("gc_during_questions", Map.of("collections", gcAfter[0] - gcBefore[0], "ms", gcAfter[1] - gcBefore[1]));
    // The JIT's compiler threads take a core from the questions while they compile: a warm-up too short shows here.
    out.put("jit_compilation_during_questions_ms", jitMs);
    System.out.printf(Locale.ROOT, "garbage collection while the questions were asked: %d collections, %d ms; JIT compilation %d ms%n",
        gcAfter[0] - gcBefore[0], gcAfter[1] - gcBefore[1], jitMs);
    return new Retrieval(out, all, msById);
  }

  private static Map<String, Object> quality(RetrievalMetrics m) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("questions", m.questions());
    out.put("packet_recall", round3(m.packetRecall()));
    out.put("packet_precision", round3(m.packetPrecision()));
    out.put("packet_f1", round3(m.packetF1()));
    out.put("tables_per_packet", round3(m.avgPacketTables()));
    out.put("p50_ms", round1(m.latencyPercentile(50)));
    out.put("p95_ms", round1(m.latencyPercentile(95)));
    out.put("p99_ms", round1(m.latencyPercentile(99)));
    // Where the time goes (embedding, pgvector, Lucene, fusion, ...): dense search is what grows with the schema.
    out.put("mean_stage_ms", m.meanStageMs());
    out.put("p95_stage_ms", m.stagePercentileMs(95));
    return out;
  }

  /** The chunk table's and the searched texts' heap and each of their indexes (the HNSW graphs among them), and the embedding cache, in MB. */
  private static Map<String, Object> pgvectorSizes(ConnectionSource db) throws SQLException {
    Map<String, Object> out = new LinkedHashMap<>();
    String chunks = PgChunkStore.SCHEMA + ".chunks";
    String texts = PgChunkStore.SCHEMA + "." + PgChunkStore.TEXTS;
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT count(*), pg_table_size('" + chunks + "'), pg_indexes_size('" + chunks + "'),"
          + " pg_total_relation_size('" + PgChunkStore.SCHEMA + ".embedding_cache'), (SELECT count(*) FROM " + texts + "),"
          + " pg_table_size('" + texts + "'), pg_indexes_size('" + texts + "') FROM " + chunks)) {
        rs.next();
        out.put("chunk_rows", rs.getLong(1));
        out.put("chunks_table_mb", mbExact(rs.getLong(2)));
        out.put("chunks_indexes_mb", mbExact(rs.getLong(3)));
        out.put("embedding_cache_mb", mbExact(rs.getLong(4)));
        out.put("text_rows", rs.getLong(5));
        out.put("texts_table_mb", mbExact(rs.getLong(6)));
        out.put("texts_indexes_mb", mbExact(rs.getLong(7)));
      }
      Map<String, Object> indexes = new LinkedHashMap<>();
      try (ResultSet rs = s.executeQuery("SELECT c.relname, pg_relation_size(c.oid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
          + " WHERE i.indrelid IN ('" + chunks + "'::regclass, '" + texts + "'::regclass) ORDER BY c.relname")) {
        while (rs.next()) {
          indexes.put(rs.getString(1), mbExact(rs.getLong(2)));
        }
      }
      out.put("indexes_mb", indexes);
    }
    System.out.printf("pgvector: %s%n", out);
    return out;
  }

  /**
   * The statements in batches of 500, each its own transaction: creating thousands of tables in
   * one transaction runs out of PostgreSQL's lock table (max_locks_per_transaction).
   */
  private static void execute(ConnectionSource db, List<String> statements) throws SQLException {
    try (Connection c = db.open(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (int i = 0; i < statements.size(); i++) {
        s.addBatch(statements.get(i));
        if (i % 500 == 499 || i == statements.size() - 1) {
          s.executeBatch();
          c.commit();
        }
      }
    }
  }

  /** How each cost grows from the first size to the others: one row per figure, one column per size. */
  static String growth(List<Map<String, Object>> runs) {
    String[][] rows = {
        {"first table searchable (s)", "initial_index", "first_table_s"},
        {"all tables indexed (s)", "initial_index", "seconds"},
        {"chunks", "initial_index", "chunks"},
        {"chunks embedded", "initial_index", "embedded"},
        {"embedded/s from the first snapshot", "initial_index", "embedded_per_s_from_first_snapshot"},
        {"model alone (texts/s)", "initial_index", "model_texts_per_s"},
        {"heap after GC, pipeline idle (MB)", "memory", "heap_after_gc_mb_pipeline_idle"},
        {"query-side index heap (MB)", "memory", "query_index_heap_mb"},
        {"peak RSS (MB)", "memory", "peak_rss_mb"},
        {"pgvector table (MB)", "pgvector", "chunks_table_mb"},
        {"pgvector indexes (MB)", "pgvector", "chunks_indexes_mb"},
        {"query index load (s)", null, "query_index_load_s"},
        {"freshness p50 (ms)", "freshness", "p50_ms"},
        {"freshness p95 (ms)", "freshness", "p95_ms"},
        {"first question after a change p50 (ms)", "first_question_after_change", "p50_ms"},
        {"first question after a change p95 (ms)", "first_question_after_change", "p95_ms"},
    };
    StringBuilder out = new StringBuilder(String.format("%nhow each cost grows (xN: times the first size's figure)%n"));
    out.append(String.format("%-42s", ""));
    runs.forEach(r -> out.append(String.format("%22s", r.get("tables") + " tables")));
    out.append(System.lineSeparator());
    for (String[] row : rows) {
      growthRow(out, runs, row[0], r -> number(row[1] == null ? r : sub(r, row[1]), row[2]));
    }
    for (String set : List.of("spider-union", "bird-union", "all")) {
      growthRow(out, runs, set + " retrieval p95 (ms)", r -> number(sub(sub(r, "retrieval"), set), "p95_ms"));
      growthRow(out, runs, set + " packet recall", r -> number(sub(sub(r, "retrieval"), set), "packet_recall"));
      growthRow(out, runs, set + " packet F1", r -> number(sub(sub(r, "retrieval"), set), "packet_f1"));
    }
    return out.toString();
  }

  private static void growthRow(StringBuilder out, List<Map<String, Object>> runs, String label,
                                java.util.function.Function<Map<String, Object>, Double> value) {
    out.append(String.format("%-42s", label));
    double firstValue = value.apply(runs.get(0));
    for (Map<String, Object> r : runs) {
      double v = value.apply(r);
      String growth = r == runs.get(0) || firstValue == 0 ? "" : String.format(Locale.ROOT, " (x%.2f)", v / firstValue);
      out.append(String.format("%22s", String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.3g", v) + growth));
    }
    out.append(System.lineSeparator());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> sub(Map<String, Object> m, String key) {
    return (Map<String, Object>) m.get(key);
  }

  private static double number(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).doubleValue();
  }

  private static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** A size field of /proc/self/status (VmRSS, VmHWM) in bytes; -1 where there is none. */
  private static long procStatus(String field) {
    return MemoryBench.procStatusBytes("self", field);
  }

  private static double percentile(List<Double> values, int p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, idx)));
  }

  private static long mb(long bytes) {
    return bytes < 0 ? -1 : Math.round(bytes / 1048576.0);
  }

  private static double mbExact(long bytes) {
    return Math.round(bytes / 1048576.0 * 10) / 10.0;
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
