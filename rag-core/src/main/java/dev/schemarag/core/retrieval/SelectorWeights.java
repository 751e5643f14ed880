package dev.schemarag.core.retrieval;

import java.util.Locale;
import java.util.Properties;

/**
 * A logistic {@link SelectorModel}: each feature's mean and scale (features are standardised before
 * they are weighed) and its coefficient, plus the probability threshold chosen for the model.
 */
public record SelectorWeights(String model, double[] mean, double[] scale, double[] coef, double threshold) implements SelectorModel {

  public SelectorWeights {
    int n = TableSelector.FEATURES.size();
    if (mean.length != n || scale.length != n || coef.length != n) {
      throw new IllegalArgumentException("selector weights of " + model + " have " + coef.length + " coefficients, the selector has "
          + n + " features");
    }
  }

  @Override
  public double probability(double[] row) {
    double z = 0;
    for (int i = 0; i < row.length; i++) {
      z += coef[i] * (row[i] - mean[i]) / scale[i];
    }
    return 1 / (1 + Math.exp(-z));
  }

  static SelectorWeights from(Properties p, String model) {
    return new SelectorWeights(model, SelectorModel.numbers(p, model + ".mean"), SelectorModel.numbers(p, model + ".scale"),
        SelectorModel.numbers(p, model + ".coef"), SelectorModel.numbers(p, model + ".threshold")[0]);
  }

  @Override
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
