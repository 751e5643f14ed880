package dev.schemarag.core.retrieval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A fitted {@link TableSelector} model for one embedding model: the probability that a table is
 * needed, from its feature row, and the threshold chosen for it. The models live in
 * {@code table-selector.properties}, written by {@code ./schemarag fit-selector}: boosted trees
 * ({@link SelectorTrees}, {@code <model>.trees}) or a logistic model ({@link SelectorWeights},
 * {@code <model>.coef}). Cosines differ by embedding model, so a fit never carries over: a model with
 * none falls back to the evidence sizer.
 */
public sealed interface SelectorModel permits SelectorWeights, SelectorTrees {

  String RESOURCE = "table-selector.properties";

  String model();

  double threshold();

  /** The probability that the table of this feature row is needed. */
  double probability(double[] row);

  /** This model as the lines of the properties file, the feature list first. */
  String asProperties();

  /** The embedding model's fitted selector from the bundled file, if it has one (read once per model). */
  static Optional<SelectorModel> forModel(String embeddingModel) {
    return Bundled.BY_MODEL.computeIfAbsent(embeddingModel.trim(), m -> from(Bundled.PROPERTIES, m));
  }

  /** The selector of {@code model} in these properties, refused if it was fitted on other features. */
  static Optional<SelectorModel> from(Properties p, String model) {
    boolean trees = p.getProperty(model + ".trees") != null;
    if (!trees && p.getProperty(model + ".coef") == null) {
      return Optional.empty();
    }
    String names = p.getProperty(model + ".features", "");
    if (!List.of(names.split(",")).equals(TableSelector.FEATURES)) {
      throw new IllegalStateException(RESOURCE + ": the selector of " + model + " was fitted on other features (" + names
          + "); fit it again with ./schemarag fit-selector");
    }
    return Optional.of(trees ? SelectorTrees.from(p, model) : SelectorWeights.from(p, model));
  }

  /** The numbers of a comma-separated property, refused by name when it is missing. */
  static double[] numbers(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IllegalStateException(RESOURCE + " has no " + key);
    }
    return Arrays.stream(v.split(",")).mapToDouble(s -> Double.parseDouble(s.trim())).toArray();
  }

  /** The bundled file, loaded once. */
  final class Bundled {
    private static final Properties PROPERTIES = load();
    private static final ConcurrentMap<String, Optional<SelectorModel>> BY_MODEL = new ConcurrentHashMap<>();

    private Bundled() {}

    private static Properties load() {
      Properties p = new Properties();
      try (InputStream in = SelectorModel.class.getResourceAsStream(RESOURCE)) {
        if (in != null) {
          p.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return p;
    }
  }
}
