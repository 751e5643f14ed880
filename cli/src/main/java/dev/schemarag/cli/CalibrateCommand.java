package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.eval.BenchQuestion;
import dev.schemarag.core.retrieval.RelevanceGate;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.store.PgDenseSearch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag calibrate}: where the relevance gate of the configured embedding model belongs.
 * Every question of the calibration sets (spider-union and bird-union dev, the sample ERP database's
 * in-scope and off-topic sets, and its questions that name values) is retrieved with the gate forced
 * shut, so that each one's full relevance is measured; then every gate from 0.20 to 0.95 (models
 * differ in their cosine range: E5 and BGE sit higher than MiniLM) is scored by the share of in-scope questions of each set it would
 * refuse and the share of off-topic questions it would refuse. The chosen gate refuses the most
 * off-topic questions while refusing at most {@code --max-in-scope-refused} of every in-scope set;
 * of gates that refuse as many, the lowest. Each gate counts the model's world margin as committed (a question
 * that much closer to the questions about the world than to the schema is refused); then, at the chosen gate,
 * every margin from 0.04 to 0.20 is scored the same way, and the chosen margin is the one that refuses the most
 * off-topic questions within the same in-scope budget, of margins that refuse as many the widest.
 */
@Command(name = "calibrate", description = "Calibrate the relevance gate of the configured embedding model on the benchmark and ERP question sets.")
final class CalibrateCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--bench", defaultValue = "../shared/bench", description = "folder of spider-union/ and bird-union/ (default ${DEFAULT-VALUE}; skipped when missing)")
  Path bench;

  @Option(names = "--erp", defaultValue = "data/bench/erp", description = "folder of the ERP question sets questions.jsonl, offtopic.jsonl and values.jsonl (when present) (default ${DEFAULT-VALUE})")
  Path erp;

  @Option(names = "--max-in-scope-refused", defaultValue = "0.01", description = "share of any in-scope set the gate may refuse (default ${DEFAULT-VALUE})")
  double maxInScopeRefused;

  @Option(names = "--json", description = "write the sweep and the chosen gate here")
  Path jsonFile;

  /** One question's measured relevance, and whether it is refused whatever its relevance (wordless, an instruction to the assistant, or one word naming no table). */
  record Measured(String set, boolean inScope, double relevance, boolean namesValue, boolean refusedAnyway, double world) {}

  @Override
  public Integer call() throws Exception {
    SchemaragConfig config = main.config();
    String modelName = config.get(ConfigKeys.EMBEDDING_MODEL);
    // Forced shut: every question is refused, so the relevance of the question without its values is measured too.
    RetrievalSettings settings = RetrievalSettings.from(config).withRelevanceGate(0.999);
    List<Measured> measured = new ArrayList<>();
    for (String name : List.of("spider-union", "bird-union")) {
      Path dir = bench.resolve(name);
      if (!Files.isDirectory(dir)) {
        System.out.println("skipped " + name + ": " + dir + " is missing");
        continue;
      }
      try (IndexedSchema s = IndexedSchema.bench(config, settings, dir.resolve("schema.json"), null, false)) {
        measure(s, name, BenchQuestion.load(dir.resolve("dev-questions.jsonl")), settings, measured);
      }
    }
    List<BenchQuestion> erpQuestions = new ArrayList<>(BenchQuestion.load(erp.resolve("questions.jsonl")));
    erpQuestions.addAll(BenchQuestion.load(erp.resolve("offtopic.jsonl")));
    // The questions that name the data's values sit closest to the gate of all in-scope questions: a set of their own.
    Path values = erp.resolve("values.jsonl");
    try (IndexedSchema s = IndexedSchema.liveSample(config, settings)) {
      measure(s, "erp", erpQuestions, settings, measured);
      if (Files.isRegularFile(values)) {
        measure(s, "erp-values", BenchQuestion.load(values), settings, measured);
      }
    }

    List<String> sets = measured.stream().filter(Measured::inScope).map(Measured::set).distinct().toList();
    double margin = settings.worldMargin();
    List<Map<String, Object>> sweep = new ArrayList<>();
    List<Double> gates = new ArrayList<>();
    for (int g = 20; g <= 95; g++) {
      gates.add(g / 100.0);
    }
    // On a tie, the lower gate (fewer in-scope refusals).
    double chosen = sweep(measured, sets, modelName, "gate", "gate", gates, gate -> gate, gate -> margin, new Choice(0, -1), sweep).value();
    double offAtChosen = refusedShare(measured, null, false, chosen, margin);
    System.out.printf(Locale.ROOT, "%nchosen gate %.2f (world margin %.2f): off-topic refused %.3f; in-scope refused at most %.3f of any set%n",
        chosen, margin, offAtChosen, maxInScopeRefused);
    System.out.printf(Locale.ROOT, "relevance-gates.properties line:  %s=%.2f%n", modelName, chosen);

    // The world margin at the chosen gate (0 = no world check, the gate alone).
    List<Map<String, Object>> marginSweep = new ArrayList<>();
    boolean measuredWorld = measured.stream().anyMatch(m -> !Double.isNaN(m.world()));
    double chosenMargin = 0;
    if (measuredWorld) {
      List<Double> margins = new ArrayList<>();
      for (int mm = 20; mm >= 4; mm--) {
        margins.add(mm / 100.0);
      }
      // Widest first: on a tie the wider margin (fewer in-scope refusals) stays.
      Choice byMargin = sweep(measured, sets, String.format(Locale.ROOT, "world margin at gate %.2f", chosen), "margin", "world_margin", margins,
          m -> chosen, m -> m, new Choice(0, refusedShare(measured, null, false, chosen, 0)), marginSweep);
      chosenMargin = byMargin.value();
      System.out.printf(Locale.ROOT, "%nchosen world margin %.2f: off-topic refused %.3f%n", chosenMargin, byMargin.offTopic());
      System.out.printf(Locale.ROOT, "relevance-gates.properties line:  %s.world.margin=%.2f%n", modelName, chosenMargin);
    } else {
      System.out.println("no world margin measured: retrieval.world.margin is 0 (or the model has none calibrated), so its questions' closeness to the world was not taken");
    }
    if (jsonFile != null) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("embedding_model", modelName);
      out.put("chosen_gate", chosen);
      out.put("off_topic_refused_at_chosen", round(offAtChosen));
      out.put("max_in_scope_refused", maxInScopeRefused);
      out.put("sweep", sweep);
      out.put("world_margin", margin);
      out.put("chosen_world_margin", chosenMargin);
      out.put("world_margin_sweep", marginSweep);
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(jsonFile.toFile(), out);
      System.out.println("wrote " + jsonFile);
    }
    return 0;
  }

  private static void measure(IndexedSchema s, String set, List<BenchQuestion> questions, RetrievalSettings settings, List<Measured> out) {
    try (PgDenseSearch dense = new PgDenseSearch(s.db(), s.index().model().databaseId())) {
      SchemaRetriever retriever = new SchemaRetriever(s.index(), s.index().denseOr(dense), s.model(), settings);
      try (me.tongfei.progressbar.ProgressBar pb = new me.tongfei.progressbar.ProgressBarBuilder().setTaskName(set)
          .setInitialMax(questions.size()).build()) {
        for (BenchQuestion q : questions) {
          Map<String, Long> metrics = retriever.retrieve(q.question()).metrics();
          out.add(new Measured(set, !q.goldTables().isEmpty(), metrics.getOrDefault("relevance_milli", 0L) / 1000.0,
              metrics.getOrDefault("names_table", 0L) == 1,
              metrics.getOrDefault("wordless", 0L) == 1 || metrics.getOrDefault("instruction", 0L) == 1
                  || metrics.getOrDefault("one_word", 0L) == 1,
              metrics.containsKey("world_milli") ? metrics.get("world_milli") / 1000.0 : Double.NaN));
          pb.step();
        }
      }
    }
  }

  /** A sweep's choice and the share of off-topic questions it refuses. */
  record Choice(double value, double offTopic) {}

  /**
   * Scores each value in order and prints the table: the value whose row refuses the most off-topic questions while
   * every in-scope set stays within the budget, the first of equals; {@code none} when no value beats it.
   */
  private Choice sweep(List<Measured> measured, List<String> sets, String title, String label, String key, List<Double> values,
                       java.util.function.DoubleUnaryOperator gateOf, java.util.function.DoubleUnaryOperator marginOf, Choice none,
                       List<Map<String, Object>> rows) {
    System.out.printf(Locale.ROOT, "%n%s: in-scope refused per set, off-topic refused%n%-6s", title, label);
    sets.forEach(n -> System.out.printf(Locale.ROOT, " %13s", n));
    System.out.printf(Locale.ROOT, " %13s%n", "off-topic");
    Choice best = none;
    for (double v : values) {
      Row row = sweepRow(measured, sets, key, v, gateOf.applyAsDouble(v), marginOf.applyAsDouble(v));
      rows.add(row.written());
      if (row.fits() && row.offTopic() > best.offTopic()) {
        best = new Choice(v, row.offTopic());
      }
    }
    return best;
  }

  /** A scored row: as written to the JSON, whether every in-scope share is within the budget, and the off-topic share. */
  private record Row(Map<String, Object> written, boolean fits, double offTopic) {}

  /**
   * One row of a sweep, printed as it is scored: the share of each in-scope set and of the off-topic questions
   * refused at this gate and world margin.
   */
  private Row sweepRow(List<Measured> measured, List<String> sets, String key, double value, double gate, double margin) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put(key, value);
    boolean fits = true;
    System.out.printf(Locale.ROOT, "%-6.2f", value);
    for (String set : sets) {
      double refused = refusedShare(measured, set, true, gate, margin);
      row.put(set + "_in_scope_refused", round(refused));
      fits &= refused <= maxInScopeRefused;
      System.out.printf(Locale.ROOT, " %13.3f", refused);
    }
    double off = refusedShare(measured, null, false, gate, margin);
    row.put("off_topic_refused", round(off));
    System.out.printf(Locale.ROOT, " %13.3f%n", off);
    return new Row(row, fits, round(off));
  }

  /** Share of the in-scope questions of {@code set} (or of all off-topic questions) the gate with this world margin refuses. */
  private static double refusedShare(List<Measured> measured, String set, boolean inScope, double gate, double margin) {
    List<Measured> of = measured.stream().filter(m -> m.inScope() == inScope && (set == null || m.set().equals(set))).toList();
    return of.isEmpty() ? 0 : (double) of.stream().filter(m -> RelevanceGate.refuses(m.relevance(), m.namesValue(), m.refusedAnyway(), gate)
        || !Double.isNaN(m.world()) && RelevanceGate.aboutTheWorld(m.world(), m.relevance(), margin)).count() / of.size();
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
