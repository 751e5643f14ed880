package dev.schemarag.core.retrieval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The fitted weights of {@link TableSelector} for one embedding model: each feature's mean and
 * scale (features are standardised before they are weighed) and its coefficient, plus the
 * probability threshold chosen for the model. They live in {@code table-selector.properties},
 * written by {@code ./schemarag fit-selector}. Cosines differ by model, so weights never carry over:
 * a model with none falls back to the evidence sizer.
 */
public record SelectorWeights(String model, double[] mean, double[] scale, double[] coef, double threshold) {

  public static final String RESOURCE = "table-selector.properties";

  public SelectorWeights {
    int n = TableSelector.FEATURES.size();
    if (mean.length != n || scale.length != n || coef.length != n) {
      throw new IllegalArgumentException("selector weights of " + model + " have " + coef.length + " coefficients, the selector has "
          + n + " features");
    }
  }

  /** The probability that the table of this feature row is needed. */
  public double probability(double[] row) {
    double z = 0;
    for (int i = 0; i < row.length; i++) {
      z += coef[i] * (row[i] - mean[i]) / scale[i];
    }
    return 1 / (1 + Math.exp(-z));
  }

  /** The model's weights from the bundled file, if it has any (read once per model). */
  public static Optional<SelectorWeights> forModel(String embeddingModel) {
    return BY_MODEL.computeIfAbsent(embeddingModel.trim(), m -> from(BUNDLED, m));
  }

  private static final java.util.concurrent.ConcurrentMap<String, Optional<SelectorWeights>> BY_MODEL =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final Properties BUNDLED = load();

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = SelectorWeights.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  static Optional<SelectorWeights> from(Properties p, String model) {
    String coef = p.getProperty(model + ".coef");
    if (coef == null) {
      return Optional.empty();
    }
    String names = p.getProperty(model + ".features", "");
    if (!List.of(names.split(",")).equals(TableSelector.FEATURES)) {
      throw new IllegalStateException(RESOURCE + ": the weights of " + model + " were fitted on other features (" + names
          + "); fit them again with ./schemarag fit-selector");
    }
    return Optional.of(new SelectorWeights(model, numbers(p, model + ".mean"), numbers(p, model + ".scale"), numbers(p, model + ".coef"),
        numbers(p, model + ".threshold")[0]));
  }

  private static double[] numbers(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IllegalStateException(RESOURCE + " has no " + key);
    }
    return Arrays.stream(v.split(",")).mapToDouble(s -> Double.parseDouble(s.trim())).toArray();
  }

  /** These weights as the lines of the properties file. */
  public String asProperties() {
    StringBuilder b = new StringBuilder();
    b.append(model).append(".features=").append(String.join(",", TableSelector.FEATURES)).append('\n');
    b.append(model).append(".mean=").append(join(mean)).append('\n');
    b.append(model).append(".scale=").append(join(scale)).append('\n');
    b.append(model).append(".coef=").append(join(coef)).append('\n');
    b.append(model).append(".threshold=").append(String.format(Locale.ROOT, "%.4f", threshold)).append('\n');
    return b.toString();
  }

  private static String join(double[] v) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < v.length; i++) {
      b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6g", v[i]));
    }
    return b.toString();
  }
}
