package dev.schemarag.core.retrieval;

import java.util.List;

/**
 * L2-regularised logistic regression by Newton's method (iteratively reweighted least squares) on
 * standardised features: the fit behind {@link SelectorWeights}. A few dozen features and some
 * hundred thousand rows converge in a handful of iterations; column 0 is the intercept, which is
 * neither standardised nor penalised.
 */
public final class LogisticFit {
  private LogisticFit() {}

  /** The standardisation and the coefficients of a fit. */
  public record Fit(double[] mean, double[] scale, double[] coef, int iterations) {}

  public static Fit fit(List<double[]> rows, List<Boolean> labels, double l2) {
    if (rows.isEmpty() || rows.size() != labels.size()) {
      throw new IllegalArgumentException("a fit needs rows and as many labels (" + rows.size() + " rows, " + labels.size() + " labels)");
    }
    int d = rows.get(0).length;
    double[] mean = new double[d];
    double[] scale = new double[d];
    for (double[] r : rows) {
      for (int j = 1; j < d; j++) {
        mean[j] += r[j];
      }
    }
    for (int j = 1; j < d; j++) {
      mean[j] /= rows.size();
    }
    for (double[] r : rows) {
      for (int j = 1; j < d; j++) {
        scale[j] += (r[j] - mean[j]) * (r[j] - mean[j]);
      }
    }
    scale[0] = 1;
    for (int j = 1; j < d; j++) {
      scale[j] = Math.sqrt(scale[j] / rows.size());
      if (scale[j] == 0) {
        scale[j] = 1;
      }
    }
    double[] w = new double[d];
    double[] x = new double[d];
    int it = 0;
    for (; it < 50; it++) {
      double[] grad = new double[d];
      double[][] hess = new double[d][d];
      for (int i = 0; i < rows.size(); i++) {
        double[] r = rows.get(i);
        double z = 0;
        for (int j = 0; j < d; j++) {
          x[j] = (r[j] - mean[j]) / scale[j];
          z += w[j] * x[j];
        }
        double p = 1 / (1 + Math.exp(-z));
        double g = p - (labels.get(i) ? 1 : 0);
        double h = Math.max(p * (1 - p), 1e-9);
        for (int j = 0; j < d; j++) {
          grad[j] += g * x[j];
          for (int k = 0; k <= j; k++) {
            hess[j][k] += h * x[j] * x[k];
          }
        }
      }
      for (int j = 0; j < d; j++) {
        for (int k = 0; k < j; k++) {
          hess[k][j] = hess[j][k];
        }
        if (j > 0) {
          grad[j] += l2 * w[j];
          hess[j][j] += l2;
        }
      }
      double[] step = solve(hess, grad);
      double size = 0;
      for (int j = 0; j < d; j++) {
        w[j] -= step[j];
        size = Math.max(size, Math.abs(step[j]));
      }
      if (size < 1e-6) {
        it++;
        break;
      }
    }
    return new Fit(mean, scale, w, it);
  }

  /** Solves {@code a x = b} for a symmetric positive definite {@code a} (Cholesky). */
  static double[] solve(double[][] a, double[] b) {
    int n = b.length;
    double[][] l = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double s = a[i][j];
        for (int k = 0; k < j; k++) {
          s -= l[i][k] * l[j][k];
        }
        if (i == j) {
          if (s <= 0) {
            throw new IllegalStateException("the fit's Hessian is not positive definite (a feature may be constant or duplicated)");
          }
          l[i][i] = Math.sqrt(s);
        } else {
          l[i][j] = s / l[j][j];
        }
      }
    }
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double s = b[i];
      for (int k = 0; k < i; k++) {
        s -= l[i][k] * y[k];
      }
      y[i] = s / l[i][i];
    }
    double[] x = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = y[i];
      for (int k = i + 1; k < n; k++) {
        s -= l[k][i] * x[k];
      }
      x[i] = s / l[i][i];
    }
    return x;
  }
}
