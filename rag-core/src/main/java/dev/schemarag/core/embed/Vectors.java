package dev.schemarag.core.embed;

/** Small vector helpers. */
public final class Vectors {
  private Vectors() {}

  /** Unit length, so that a dot product is the cosine. */
  public static float[] normalize(float[] v) {
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    n = Math.sqrt(n);
    if (n == 0) {
      return v.clone();
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / n);
    }
    return out;
  }

  public static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
