package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.eval.BenchQuestion;
import dev.schemarag.core.retrieval.LogisticFit;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.retrieval.SelectorWeights;
import dev.schemarag.core.retrieval.TableSelector;
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
 * gold SQL uses it; a regularised logistic regression is fitted on the rows. The lines go to stdout,
 * or replace the model's lines in {@code --out} (the bundled {@code table-selector.properties}).
 * The training set is Spider's train split, whose databases no dev question asks about.
 */
@Command(name = "fit-selector", description = "Fit the packet selector's weights for the configured embedding model on questions with gold tables.")
final class FitSelectorCommand implements Callable<Integer> {

  @ParentCommand Main main;

  @Option(names = "--schema", defaultValue = "../shared/bench/spider-union/schema.json", description = "schema description JSON (default ${DEFAULT-VALUE})")
  Path schemaFile;

  @Option(names = "--questions", defaultValue = "../shared/bench/spider-union/train-questions.jsonl",
      description = "training questions JSONL with gold_tables (default ${DEFAULT-VALUE})")
  Path questionsFile;

  @Option(names = "--threshold", defaultValue = "0.015", description = "the probability a table needs to enter the packet, written with the weights (default ${DEFAULT-VALUE})")
  double threshold;

  @Option(names = "--l2", defaultValue = "0.2", description = "L2 penalty on the standardised coefficients (default ${DEFAULT-VALUE})")
  double l2;

  @Option(names = "--limit", description = "fit on the first N questions only")
  Integer limit;

  @Option(names = "--out", description = "properties file whose lines for this model are replaced (e.g. rag-core/src/main/resources/dev/schemarag/core/retrieval/table-selector.properties)")
  Path out;

  @Override
  public Integer call() throws Exception {
    InputFiles.existing("schema file", schemaFile);
    InputFiles.existing("questions file", questionsFile);
    if (threshold <= 0 || threshold >= 1) {
      throw new IllegalArgumentException("--threshold must be within 0..1 (exclusive), not " + threshold);
    }
    if (out != null && out.toAbsolutePath().getParent() != null && !Files.isDirectory(out.toAbsolutePath().getParent())) {
      throw new IllegalArgumentException("the folder of --out " + out + " does not exist");
    }
    SchemaragConfig config = main.config();
    String modelName = config.get(ConfigKeys.EMBEDDING_MODEL).trim();
    List<BenchQuestion> questions = BenchQuestion.load(questionsFile);
    if (limit != null) {
      questions = questions.subList(0, Math.min(limit, questions.size()));
    }
    // The gate open: a training question is never refused, so every one gives rows.
    RetrievalSettings settings = RetrievalSettings.from(config).withRelevanceGate(0).withSelector(RetrievalSettings.SELECTOR_EVIDENCE);
    List<double[]> rows = new ArrayList<>();
    List<Boolean> labels = new ArrayList<>();
    int used = 0;
    try (IndexedSchema s = IndexedSchema.bench(config, settings, schemaFile, null, false);
         PgDenseSearch dense = new PgDenseSearch(s.db(), s.index().model().databaseId(), config.getInt(ConfigKeys.RETRIEVAL_EF_SEARCH))) {
      SchemaRetriever retriever = new SchemaRetriever(s.index(), dense, s.model(), settings);
      try (ProgressBar pb = new ProgressBarBuilder().setTaskName("questions").setInitialMax(questions.size())
          .setStyle(ProgressBarStyle.ASCII).build()) {
        for (BenchQuestion q : questions) {
          pb.step();
          if (q.goldTables().isEmpty()) {
            continue;
          }
          Set<String> gold = Set.copyOf(q.goldTables());
          List<TableSelector.Candidate> judged = retriever.retrieveWithEvidence(q.question(), settings).judged();
          for (TableSelector.Candidate c : judged) {
            rows.add(c.features());
            labels.add(gold.contains(c.table()));
          }
          used += judged.isEmpty() ? 0 : 1;
        }
      }
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("no question of " + questionsFile + " gave candidate tables to fit on");
    }
    LogisticFit.Fit fit = LogisticFit.fit(rows, labels, l2);
    SelectorWeights weights = new SelectorWeights(modelName, fit.mean(), fit.scale(), fit.coef(), threshold);
    long positives = labels.stream().filter(b -> b).count();
    System.out.printf(Locale.ROOT, "%nfitted on %d questions, %d candidate tables (%d needed) in %d Newton steps; log loss %.4f%n", used,
        rows.size(), positives, fit.iterations(), logLoss(weights, rows, labels));
    for (int i = 0; i < TableSelector.FEATURES.size(); i++) {
      System.out.printf(Locale.ROOT, "  %-22s %+.3f%n", TableSelector.FEATURES.get(i), fit.coef()[i]);
    }
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

  private static double logLoss(SelectorWeights w, List<double[]> rows, List<Boolean> labels) {
    double sum = 0;
    for (int i = 0; i < rows.size(); i++) {
      double p = Math.min(1 - 1e-12, Math.max(1e-12, w.probability(rows.get(i))));
      sum -= labels.get(i) ? Math.log(p) : Math.log(1 - p);
    }
    return sum / rows.size();
  }
}
