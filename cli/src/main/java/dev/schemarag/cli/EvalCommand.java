package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.eval.BenchQuestion;
import dev.schemarag.core.eval.HtmlReport;
import dev.schemarag.core.eval.RetrievalMetrics;
import dev.schemarag.core.eval.SpiderFormatQuestions;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.retrieval.WarmUpQuestions;
import dev.schemarag.core.schema.SchemaJsonLoader;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.store.PgChunkStore;
import dev.schemarag.core.store.PgDenseSearch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code ./schemarag eval}: indexes a benchmark schema in pgvector and measures retrieval over its questions. */
@Command(name = "eval", description = "Measure retrieval quality on a schema (bench JSON format), or on the sample ERP database"
    + " as the live pipeline indexes it (--sample), over question sets with gold tables; questions with no gold tables are"
    + " off-topic and should be refused.")
final class EvalCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--schema", description = "schema description JSON (e.g. ../shared/bench/spider-union/schema.json)")
  Path schemaFile;

  @Option(names = "--sample", description = "the sample ERP database, loaded into PostgreSQL and indexed by the live pipeline"
      + " (ingest snapshots, Kafka, the indexer with docs, comments and query patterns), as in production")
  boolean sample;

  @Option(names = "--questions", required = true, split = ",",
      description = "questions JSONL with gold_tables / gold_columns (several: repeat or separate with commas); a question"
          + " with empty gold_tables is off-topic. A JSON array in Spider's format (db_id, question, query) is read too, its gold"
          + " tables parsed from each query")
  List<Path> questionsFiles;

  @Option(names = "--question-field", defaultValue = "question",
      description = "in a questions file in Spider's format (a JSON array with db_id, the question and its gold query), the field"
          + " that holds the question: SpiderSynQuestion for Spider-Syn (default ${DEFAULT-VALUE})")
  String questionField;

  @Option(names = "--relevance-gate", description = "override retrieval.relevance.gate (0 = never refuse)")
  Double relevanceGate;

  @Option(names = "--world-margin", description = "override retrieval.world.margin (0 = never refuse a question as one about the world)")
  Double worldMargin;

  @Option(names = "--distractor-schemas", split = ",",
      description = "schema descriptions (the same JSON format: public enterprise schemas, say) whose tables are indexed beside"
          + " --schema's, each module (db_id) a schema of its own, for questions to find their tables among look-alikes;"
          + " a folder gives its .json and .json.gz files (data/bench/public-schemas)")
  List<Path> distractorSchemas = List.of();

  @Option(names = "--docs", description = "folder of markdown schema docs to merge into the tables")
  Path docsDir;

  @Option(names = "--json", description = "write the figures as JSON here")
  Path jsonFile;

  @Option(names = "--report", description = "write report.html (recall@k curve, latency histogram) into this folder")
  Path reportDir;

  @Option(names = "--top-k", description = "override retrieval.top.k")
  Integer topK;

  @Option(names = "--limit", description = "evaluate only the first N questions")
  Integer limit;

  @Option(names = {"--warm-up", "--warmup"}, defaultValue = "200",
      description = "untimed questions made from the schema's own words first, none from the set (default ${DEFAULT-VALUE})")
  int warmup;

  @Option(names = "--no-cache", description = "embed every chunk again (measures embedding throughput; the cache is not read)")
  boolean noCache;

  @Option(names = "--changes", defaultValue = "0", description = "after the questions: this many one-table changes (a described column"
      + " added), each applied to the loaded index in place, timing the first question after each (default ${DEFAULT-VALUE})")
  int changes;

  @Option(names = "--dump-evidence", description = "diagnostics: write every question's per-table evidence as JSONL here")
  Path evidenceFile;

  @Override
  public Integer call() throws Exception {
    SchemaragConfig config = main.config();
    if ((schemaFile == null) == !sample) {
      throw new IllegalArgumentException("give either --schema FILE or --sample");
    }
    if (schemaFile != null) {
      InputFiles.existing("schema file", schemaFile);
    }
    if (!distractorSchemas.isEmpty() && sample) {
      throw new IllegalArgumentException("--distractor-schemas goes with --schema: the sample is indexed from its database as it is");
    }
    distractorSchemas = DistractorSchemas.files(distractorSchemas);
    questionsFiles.forEach(f -> InputFiles.existing("questions file", f));
    // Output locations first: a run must not fail after minutes of work because a folder is missing.
    for (Path out : new Path[] {jsonFile, evidenceFile}) {
      if (out != null) {
        createDirectories(out.toAbsolutePath().getParent());
      }
    }
    if (reportDir != null) {
      createDirectories(reportDir);
    }
    List<BenchQuestion> questions = new ArrayList<>();
    SchemaModel described = null;
    for (Path questionsFile : questionsFiles) {
      if (SpiderFormatQuestions.isSpiderFormat(questionsFile)) {
        if (schemaFile == null) {
          throw new IllegalArgumentException(questionsFile + " is in Spider's format, whose gold tables are read from the SQL against"
              + " the schema: give --schema FILE with it");
        }
        described = described == null ? SchemaJsonLoader.load(schemaFile) : described;
        questions.addAll(SpiderFormatQuestions.load(questionsFile, questionField, described));
      } else {
        questions.addAll(BenchQuestion.load(questionsFile));
      }
    }
    if (limit != null) {
      questions = questions.subList(0, Math.min(limit, questions.size()));
    }
    RetrievalSettings settings = RetrievalSettings.from(config);
    if (topK != null) {
      settings = settings.withTopK(topK);
    }
    if (relevanceGate != null) {
      settings = settings.withRelevanceGate(relevanceGate);
    }
    if (worldMargin != null) {
      settings = settings.withWorldMargin(worldMargin);
    }
    SchemaModel schema = sample ? null
        : distractorSchemas.isEmpty() ? SchemaJsonLoader.load(schemaFile) : DistractorSchemas.all(SchemaJsonLoader.load(schemaFile), distractorSchemas);
    try (IndexedSchema indexed = sample ? IndexedSchema.liveSample(config, settings) : IndexedSchema.bench(config, settings, schema, docsDir, noCache)) {
      SchemaIndex index = indexed.index();
      SchemaModel model = index.model();
      System.out.printf("schema %s: %d tables, %d foreign keys; %d questions; relevance gate %.2f, world margin %.2f%n", model.databaseId(), model.size(),
          model.foreignKeys().size(), questions.size(), settings.relevanceGate(), settings.worldMargin());
      double chunksPerSecond = indexed.chunksPerSecond();
      String dbId = model.databaseId();
      try (PgDenseSearch dense = new PgDenseSearch(indexed.db(), dbId, config.getInt(ConfigKeys.RETRIEVAL_EF_SEARCH))) {
        // Questions go to the model directly: a cache lookup would cost more than the ~4 ms embedding.
        SchemaRetriever retriever = new SchemaRetriever(index, index.denseOr(dense), indexed.model(), settings);
        System.out.println("packet selection: " + retriever.packetSelection(settings));
        for (String w : WarmUpQuestions.of(model, warmup)) {
          retriever.retrieve(w);
        }
        // As the query service's warm-up does: timed questions make no call to the model for their unknown words.
        SchemaIndex.preloadNameWordVectors(indexed.model(), () -> false);
        RetrievalMetrics metrics = new RetrievalMetrics();
        try (EvidenceDump.Writer evidence = evidenceFile == null ? null : new EvidenceDump.Writer(evidenceFile, false);
             ProgressBar pb = new ProgressBarBuilder().setTaskName("questions").setInitialMax(questions.size())
            .setStyle(ProgressBarStyle.ASCII).build()) {
          for (BenchQuestion q : questions) {
            long s = System.nanoTime();
            SchemaRetriever.Result r = retriever.retrieveWithEvidence(q.question(), settings);
            double ms = (System.nanoTime() - s) / 1e6;
            metrics.add(q, r.packet(), ms);
            if (evidence != null) {
              evidence.write(EvidenceDump.row(q, r, index));
            }
            pb.step();
          }
        }
        print(metrics, chunksPerSecond);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Map<String, Object> figures = new LinkedHashMap<>(metrics.toJson(chunksPerSecond));
        if (changes > 0) {
          ChangeLatency.Outcome samples = ChangeLatency.measure(index, new PgChunkStore(indexed.db()), indexed.model(), indexed.model(),
              dense, settings, questions.stream().map(BenchQuestion::question).toList(), changes);
          Map<String, Object> changeFigures = ChangeLatency.figures(samples, metrics.latencyPercentile(95));
          ChangeLatency.print(changeFigures);
          figures.put("after_change", changeFigures);
        }
        figures.put("schema", model.databaseId());
        figures.put("tables", model.size());
        figures.put("embedding_model", indexed.model().modelId());
        figures.put("relevance_gate", settings.relevanceGate());
        figures.put("packet_selection", retriever.packetSelection(settings));
        if (jsonFile != null) {
          json.writeValue(jsonFile.toFile(), figures);
          System.out.println("wrote " + jsonFile);
        }
        if (reportDir != null) {
          Path page = reportDir.resolve("report.html");
          Files.writeString(page, HtmlReport.render("schemarag retrieval: " + model.databaseId(), metrics, chunksPerSecond));
          System.out.println("wrote " + page);
        }
        if (evidenceFile != null) {
          System.out.println("wrote " + evidenceFile);
        }
      }
    }
    return 0;
  }

  private static void createDirectories(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("cannot create the output folder " + dir + ": " + e.getMessage());
    }
  }

  private static void print(RetrievalMetrics m, double chunksPerSecond) {
    System.out.println();
    System.out.printf(Locale.ROOT, "questions                     %d%n", m.questions());
    StringBuilder atK = new StringBuilder();
    for (int k : RetrievalMetrics.KS) {
      atK.append(String.format(Locale.ROOT, " @%d %.3f", k, m.recallAt(k)));
    }
    System.out.println("table recall                 " + atK);
    System.out.printf(Locale.ROOT, "MRR                           %.3f%n", m.mrr());
    System.out.printf(Locale.ROOT, "packet recall / precision / F1  %.3f / %.3f / %.3f%n", m.packetRecall(), m.packetPrecision(), m.packetF1());
    System.out.printf(Locale.ROOT, "all gold tables in packet     %.3f%n", m.allGoldRate());
    System.out.printf(Locale.ROOT, "tables per packet             %.2f%n", m.avgPacketTables());
    System.out.println(m.hasGoldColumns() ? String.format(Locale.ROOT, "gold columns in packet        %.3f", m.columnRecallInPacket())
        : "gold columns in packet        (the questions name none)");
    System.out.printf(Locale.ROOT, "packet tokens / schema tokens %.0f / %.0f%n", m.avgPacketTokens(), m.avgSchemaTokens());
    System.out.printf(Locale.ROOT, "latency ms p50 / p95 / p99    %.1f / %.1f / %.1f%n", m.latencyPercentile(50), m.latencyPercentile(95), m.latencyPercentile(99));
    System.out.printf(Locale.ROOT, "mean ms per stage             %s%n", m.meanStageMs());
    System.out.printf(Locale.ROOT, "p95 ms per stage              %s%n", m.stagePercentileMs(95));
    System.out.printf(Locale.ROOT, "indexing                      %.1f chunks/s%n", chunksPerSecond);
    System.out.printf(Locale.ROOT, "in-scope questions refused    %.3f%n", m.inScopeRefusedRate());
    if (m.offTopicQuestions() > 0) {
      System.out.printf(Locale.ROOT, "off-topic questions refused   %.3f (%d questions)%n", m.offTopicRefusedRate(), m.offTopicQuestions());
    }
    System.out.printf(Locale.ROOT, "packets below the ranker      %d (fewer gold tables than the ranking's first as many tables)%n",
        m.packetsBelowRankerAtSize());
    System.out.printf(Locale.ROOT, "multi-table packets joinable  %.3f (%d questions with 2+ gold tables)%n", m.multiTableConnectedRate(),
        m.multiTableQuestions());
  }
}
