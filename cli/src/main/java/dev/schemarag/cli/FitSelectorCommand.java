package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.eval.BenchQuestion;
import dev.schemarag.core.retrieval.LogisticFit;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.retrieval.SelectorModel;
import dev.schemarag.core.retrieval.SelectorTrees;
import dev.schemarag.core.retrieval.SelectorWeights;
import dev.schemarag.core.retrieval.TableSelector;
import dev.schemarag.core.schema.SchemaJsonLoader;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.store.PgDenseSearch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./schemarag fit-selector}: fits the {@link TableSelector}'s weights for the configured
 * embedding model. Every training question is retrieved with the relevance gate open; each of the
 * ranking's leading tables becomes a row of selector features, labelled by whether the question's
 * gold SQL uses it; gradient-boosted trees (XGBoost) or a regularised logistic regression are fitted
 * on the rows. The lines go to stdout,
 * or replace the model's lines in {@code --out} (the bundled {@code table-selector.properties}).
 * The training set is Spider's train split, whose databases no dev question asks about.
 */
@Command(name = "fit-selector", description = "Fit the packet selector's model for the configured embedding model on questions with gold tables.")
final class FitSelectorCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--schema", defaultValue = "../shared/bench/spider-union/schema.json", description = "schema description JSON (default ${DEFAULT-VALUE})")
  Path schemaFile;

  @Option(names = "--questions", defaultValue = "../shared/bench/spider-union/train-questions.jsonl",
      description = "training questions JSONL with gold_tables (default ${DEFAULT-VALUE})")
  Path questionsFile;

  @Option(names = "--threshold", defaultValue = "0.013", description = "the probability a table needs to enter the packet, written with the weights (default ${DEFAULT-VALUE})")
  double threshold;

  @Option(names = "--learner", defaultValue = "trees", description = "trees (gradient-boosted, XGBoost) or logistic (default ${DEFAULT-VALUE})")
  String learner;

  @Option(names = "--l2", defaultValue = "0.2", description = "logistic: L2 penalty on the standardised coefficients (default ${DEFAULT-VALUE})")
  double l2;

  @Option(names = "--rounds", defaultValue = "800", description = "trees: boosting rounds, one tree each (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--depth", defaultValue = "4", description = "trees: the deepest split (default ${DEFAULT-VALUE})")
  int depth;

  @Option(names = "--eta", defaultValue = "0.05", description = "trees: learning rate (default ${DEFAULT-VALUE})")
  double eta;

  @Option(names = "--min-child-weight", defaultValue = "20", description = "trees: the least hessian a leaf may hold (default ${DEFAULT-VALUE})")
  double minChildWeight;

  @Option(names = "--limit", description = "fit on the first N questions only")
  Integer limit;

  @Option(names = "--distractors", defaultValue = "9000",
      description = "also retrieve every question with this many distractor tables beside the schema (the --distractor-schemas modules"
          + " first, generated enterprise tables for the rest), and fit on both passes' rows (0 = the schema alone; default ${DEFAULT-VALUE})")
  int distractors;

  @Option(names = "--distractor-seed", defaultValue = "101", description = "seed of the generated tables (default ${DEFAULT-VALUE})")
  long distractorSeed;

  @Option(names = "--distractor-schemas", split = ",",
      description = "schema descriptions (the benchmark JSON format, e.g. public enterprise schemas) whose whole modules are among the"
          + " --distractors tables, in an order --distractor-seed shuffles, before generated tables fill the rest;"
          + " a folder gives its .json and .json.gz files (data/bench/public-schemas)")
  List<Path> distractorSchemas = List.of();

  @Option(names = "--sample-questions", split = ",",
      description = "also fit on these questions over the sample ERP database as the live pipeline indexes it (docs, comments, query"
          + " patterns): one large enterprise database, whose tables are one unit, as no Spider database is (none by default)")
  List<Path> sampleQuestions = List.of();

  @Option(names = "--sample-weight", defaultValue = "10",
      description = "how many times each row of --sample-questions counts beside a Spider row (default ${DEFAULT-VALUE})")
  double sampleWeight;

  @Option(names = "--out", description = "properties file whose lines for this model are replaced (e.g. rag-core/src/main/resources/dev/schemarag/core/retrieval/table-selector.properties)")
  Path out;

  @Option(names = "--from-rows", description = "fit on the rows a run wrote with --rows (question, weight, label, features) instead of retrieving")
  Path fromRows;

  @Option(names = "--rows", description = "also write every row (question number, weight, label, features) as CSV to this file")
  Path rowsFile;

  @Override
  public Integer call() throws Exception {
    if (fromRows == null) {
      // A fit from rows reads neither.
      InputFiles.existing("schema file", schemaFile);
      InputFiles.existing("questions file", questionsFile);
    }
    if (!learner.equals("trees") && !learner.equals("logistic")) {
      throw new IllegalArgumentException("--learner must be trees or logistic, not " + learner);
    }
    if (distractors < 0) {
      throw new IllegalArgumentException("--distractors must not be negative, not " + distractors);
    }
    if (rounds < 1 || depth < 1 || eta <= 0 || minChildWeight < 0) {
      throw new IllegalArgumentException("--rounds and --depth must be at least 1, --eta above 0 and --min-child-weight at least 0");
    }
    for (Path f : sampleQuestions) {
      InputFiles.existing("sample questions file", f);
    }
    distractorSchemas = DistractorSchemas.files(distractorSchemas);
    if (!distractorSchemas.isEmpty() && (distractors == 0 || fromRows != null)) {
      throw new IllegalArgumentException("--distractor-schemas places its modules among the --distractors tables of a retrieving run:"
          + " give --distractors above 0 and no --from-rows");
    }
    if (fromRows != null && !sampleQuestions.isEmpty()) {
      throw new IllegalArgumentException("--from-rows fits on the rows of that file as they are; --sample-questions retrieves new ones: give one of them");
    }
    if (fromRows != null) {
      InputFiles.existing("rows file", fromRows);
    }
    if (sampleWeight <= 0) {
      throw new IllegalArgumentException("--sample-weight must be above 0, not " + sampleWeight);
    }
    if (threshold <= 0 || threshold >= 1) {
      throw new IllegalArgumentException("--threshold must be within 0..1 (exclusive), not " + threshold);
    }
    if (out != null && out.toAbsolutePath().getParent() != null && !Files.isDirectory(out.toAbsolutePath().getParent())) {
      throw new IllegalArgumentException("the folder of --out " + out + " does not exist");
    }
    SchemaragConfig config = main.config();
    String modelName = config.get(ConfigKeys.EMBEDDING_MODEL).trim();
    Rows rows;
    String fittedOn;
    if (fromRows != null) {
      rows = Rows.read(fromRows);
      fittedOn = String.format(Locale.ROOT, "the rows of %d questions in %s", rows.questions(), fromRows);
    } else {
      rows = new Rows();
      fittedOn = retrieveRows(config, rows);
    }
    if (rows.features.isEmpty()) {
      throw new IllegalArgumentException("no question of " + (fromRows != null ? fromRows : questionsFile) + " gave candidate tables to fit on");
    }
    if (rowsFile != null) {
      rows.write(rowsFile);
    }
    SelectorModel weights;
    String how;
    if (learner.equals("trees")) {
      SelectorTrees trees = BoostedTreesFit.fit(modelName, rows.features, rows.labels, rows.weights,
          new BoostedTreesFit.Params(rounds, depth, eta, minChildWeight, 0.8), threshold);
      weights = trees;
      how = String.format(Locale.ROOT, "%d trees of depth %d at most", trees.trees(), depth);
    } else {
      if (rows.weights.stream().anyMatch(w -> w != 1)) {
        throw new IllegalArgumentException("the rows are weighed (--sample-questions), which the logistic learner does not do: use --learner trees");
      }
      LogisticFit.Fit fit = LogisticFit.fit(rows.features, rows.labels, l2);
      weights = new SelectorWeights(modelName, fit.mean(), fit.scale(), fit.coef(), threshold);
      how = fit.iterations() + " Newton steps";
      for (int i = 0; i < TableSelector.FEATURES.size(); i++) {
        System.out.printf(Locale.ROOT, "  %-22s %+.3f%n", TableSelector.FEATURES.get(i), fit.coef()[i]);
      }
    }
    long positives = rows.labels.stream().filter(b -> b).count();
    System.out.printf(Locale.ROOT, "%nfitted on %s, %d candidate tables (%d needed): %s; log loss %.4f%n", fittedOn,
        rows.features.size(), positives, how, logLoss(weights, rows.features, rows.labels));
    String lines = weights.asProperties();
    if (out == null) {
      System.out.println();
      System.out.print(lines);
    } else {
      List<String> kept = new ArrayList<>();
      if (Files.exists(out)) {
        for (String line : Files.readAllLines(out)) {
          if (!line.startsWith(modelName + ".")) {
            kept.add(line);
          }
        }
      }
      kept.addAll(lines.lines().toList());
      Files.write(out, kept);
      System.out.println("wrote the weights of " + modelName + " to " + out);
    }
    return 0;
  }

  /** Retrieves the training questions (and the sample's) and adds their rows; says what the rows come from. */
  private String retrieveRows(SchemaragConfig config, Rows rows) throws Exception {
    List<BenchQuestion> questions = BenchQuestion.load(questionsFile);
    if (limit != null) {
      questions = questions.subList(0, Math.min(limit, questions.size()));
    }
    // The gate open: a training question is never refused, so every one gives rows.
    RetrievalSettings settings = RetrievalSettings.from(config).withRelevanceGate(0).withSelector(RetrievalSettings.SELECTOR_EVIDENCE);
    SchemaModel schema = SchemaJsonLoader.load(schemaFile);
    int used;
    try (IndexedSchema s = IndexedSchema.bench(config, settings, schema, null, false)) {
      used = collect(s, config, settings, questions, "questions", 1, rows);
    }
    if (distractors > 0) {
      // Hard negatives: the same questions among thousands of look-alike tables, where a large schema's ranking is flatter.
      Set<String> modules = new java.util.HashSet<>();
      schema.tables().forEach(t -> modules.add(t.module().orElse(t.name().substring(0, Math.max(0, t.name().indexOf('.'))))));
      SchemaModel large = DistractorSchemas.beside(schema, distractorSchemas, distractorSeed, distractors, modules).model();
      try (IndexedSchema s = IndexedSchema.bench(config, settings, large, null, false)) {
        collect(s, config, settings, questions, "questions among " + large.size() + " tables", 1, rows);
      }
    }
    String fittedOn = used + " questions" + (distractors > 0 ? " (each also among the distractors)" : "");
    if (!sampleQuestions.isEmpty()) {
      List<BenchQuestion> sample = new ArrayList<>();
      for (Path f : sampleQuestions) {
        sample.addAll(BenchQuestion.load(f));
      }
      try (IndexedSchema s = IndexedSchema.liveSample(config, settings)) {
        int sampleUsed = collect(s, config, settings, sample, "sample questions", sampleWeight, rows);
        fittedOn += String.format(Locale.ROOT, " and %d sample questions (each row weighing %s)", sampleUsed, sampleWeight);
      }
    }
    return fittedOn;
  }

  /** The training rows: each judged table's features, whether the gold SQL uses it, its weight and its question's number. */
  static final class Rows {
    static final String HEADER = "question,weight,label," + String.join(",", TableSelector.FEATURES);
    final List<double[]> features = new ArrayList<>();
    final List<Boolean> labels = new ArrayList<>();
    final List<Double> weights = new ArrayList<>();
    final List<Integer> question = new ArrayList<>();

    void add(int q, double weight, boolean label, double[] x) {
      question.add(q);
      weights.add(weight);
      labels.add(label);
      features.add(x);
    }

    int questions() {
      return (int) question.stream().distinct().count();
    }

    /** One line per row, after {@link #HEADER}: what {@link #read} reads back. */
    void write(Path file) throws java.io.IOException {
      try (var w = Files.newBufferedWriter(file)) {
        w.write(HEADER + "\n");
        for (int i = 0; i < features.size(); i++) {
          StringBuilder line = new StringBuilder().append(question.get(i)).append(',').append(weights.get(i))
              .append(',').append(labels.get(i) ? 1 : 0);
          for (double v : features.get(i)) {
            line.append(',').append(v);
          }
          w.write(line.append('\n').toString());
        }
      }
    }

    /** Rows written by {@link #write}; a file of other features, or a line that does not parse, is refused with its line number. */
    static Rows read(Path file) throws java.io.IOException {
      List<String> lines = Files.readAllLines(file);
      if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
        throw new IllegalArgumentException(file + " is not a rows file of the selector's features: its first line must be " + HEADER);
      }
      Rows rows = new Rows();
      int fields = 3 + TableSelector.FEATURES.size();
      for (int n = 1; n < lines.size(); n++) {
        String[] f = lines.get(n).split(",", -1);
        try {
          if (f.length != fields) {
            throw new IllegalArgumentException(f.length + " fields, expected " + fields);
          }
          if (!f[2].equals("0") && !f[2].equals("1")) {
            throw new IllegalArgumentException("label " + f[2] + ", expected 0 or 1");
          }
          double[] x = new double[TableSelector.FEATURES.size()];
          for (int j = 0; j < x.length; j++) {
            x[j] = Double.parseDouble(f[3 + j]);
          }
          rows.add(Integer.parseInt(f[0]), Double.parseDouble(f[1]), f[2].equals("1"), x);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(file + " line " + (n + 1) + ": " + e.getMessage(), e);
        }
      }
      return rows;
    }
  }

  /** Retrieves every question over this indexed schema and adds each judged table's row; returns how many questions gave rows. */
  private static int collect(IndexedSchema s, SchemaragConfig config, RetrievalSettings settings, List<BenchQuestion> questions, String task,
      double weight, Rows rows) throws Exception {
    int used = 0;
    int offset = rows.question.isEmpty() ? 0 : rows.question.get(rows.question.size() - 1) + 1;
    try (PgDenseSearch dense = new PgDenseSearch(s.db(), s.index().model().databaseId(), config.getInt(ConfigKeys.RETRIEVAL_EF_SEARCH))) {
      SchemaRetriever retriever = new SchemaRetriever(s.index(), s.index().denseOr(dense), s.model(), settings);
      try (ProgressBar pb = new ProgressBarBuilder().setTaskName(task).setInitialMax(questions.size())
          .setStyle(ProgressBarStyle.ASCII).build()) {
        for (BenchQuestion q : questions) {
          pb.step();
          if (q.goldTables().isEmpty()) {
            continue;
          }
          Set<String> gold = Set.copyOf(q.goldTables());
          List<TableSelector.Candidate> judged = retriever.retrieveWithEvidence(q.question(), settings).judged();
          for (TableSelector.Candidate c : judged) {
            rows.add(offset + used, weight, gold.contains(c.table()), c.features());
          }
          used += judged.isEmpty() ? 0 : 1;
        }
      }
    }
    return used;
  }

  private static double logLoss(SelectorModel w, List<double[]> rows, List<Boolean> labels) {
    double sum = 0;
    for (int i = 0; i < rows.size(); i++) {
      double p = Math.min(1 - 1e-12, Math.max(1e-12, w.probability(rows.get(i))));
      sum -= labels.get(i) ? Math.log(p) : Math.log(1 - p);
    }
    return sum / rows.size();
  }
}
