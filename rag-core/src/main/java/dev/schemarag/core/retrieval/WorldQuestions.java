package dev.schemarag.core.retrieval;

import dev.schemarag.core.embed.Embedder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Questions about the world at large ({@code world-questions.txt}: the weather, opening hours, share prices,
 * a regex, a poem), embedded by the question's model: the background the relevance gate weighs a question
 * against. A question about the world may borrow a database's words ("the pharmacies in Lyon" for a database
 * with offices in Lyon) and pass an absolute gate, but it stays far closer to other questions about the world
 * than to any table; a question about the data does not. None of these questions is about an organisation's
 * records, so they hold for any database.
 */
public final class WorldQuestions {

  /** The nearest questions whose mean cosine is a question's closeness to the world: one alone is too often a near-copy by chance. */
  static final int NEAREST = 3;

  private static final String RESOURCE = "world-questions.txt";
  /** Per model: the bundled texts are fixed, so their vectors are a fact of the model, computed once. */
  private static final Map<String, WorldQuestions> BY_MODEL = new ConcurrentHashMap<>();

  private final List<String> texts;
  /** The vectors one after the other in one array: a question reads them all, in order. */
  private final float[] vectors;
  private final int dimension;

  WorldQuestions(List<String> texts, List<float[]> vectors) {
    if (texts.size() != vectors.size() || texts.size() < NEAREST) {
      throw new IllegalArgumentException("world questions need " + NEAREST + " or more texts, each with its vector; got "
          + texts.size() + " texts and " + vectors.size() + " vectors");
    }
    this.texts = List.copyOf(texts);
    this.dimension = vectors.get(0).length;
    this.vectors = new float[texts.size() * dimension];
    for (int i = 0; i < vectors.size(); i++) {
      if (vectors.get(i).length != dimension) {
        throw new IllegalArgumentException("world question " + i + " has a vector of " + vectors.get(i).length + " dimensions, the first " + dimension);
      }
      System.arraycopy(vectors.get(i), 0, this.vectors, i * dimension, dimension);
    }
  }

  /** The bundled questions, embedded as questions by this model (once per model id). */
  public static WorldQuestions of(Embedder embedder) {
    return BY_MODEL.computeIfAbsent(embedder.modelId(), id -> {
      List<String> texts = bundled();
      return new WorldQuestions(texts, embedder.embedQuestions(texts));
    });
  }

  /** The bundled questions, in file order, comments and blank lines left out. */
  static List<String> bundled() {
    List<String> out = new ArrayList<>();
    try (InputStream in = WorldQuestions.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          String t = line.strip();
          if (!t.isEmpty() && !t.startsWith("#")) {
            out.add(t);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** How close a question is to the world: the mean cosine of its {@link #NEAREST} nearest world questions, and the nearest. */
  public record Closeness(double score, String nearest) {}

  /** The closeness of a question's unit vector to these questions. */
  public Closeness closeness(float[] question) {
    double[] top = new double[NEAREST];
    java.util.Arrays.fill(top, Double.NEGATIVE_INFINITY);
    int nearest = -1;
    if (question.length != dimension) {
      throw new IllegalArgumentException("a question vector of " + question.length + " dimensions against world vectors of " + dimension);
    }
    for (int i = 0; i < texts.size(); i++) {
      double c = dot(question, vectors, i * dimension);
      if (c > top[NEAREST - 1]) {
        int j = NEAREST - 1;
        while (j > 0 && top[j - 1] < c) {
          top[j] = top[j - 1];
          j--;
        }
        top[j] = c;
        if (j == 0) {
          nearest = i;
        }
      }
    }
    double sum = 0;
    for (double t : top) {
      sum += t;
    }
    return new Closeness(sum / NEAREST, texts.get(nearest));
  }

  /** Four sums side by side, so the products need not wait on one another: half the time of one double sum. */
  private static double dot(float[] q, float[] all, int offset) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int n = q.length - q.length % 4;
    for (int i = 0; i < n; i += 4) {
      s0 += q[i] * all[offset + i];
      s1 += q[i + 1] * all[offset + i + 1];
      s2 += q[i + 2] * all[offset + i + 2];
      s3 += q[i + 3] * all[offset + i + 3];
    }
    for (int i = n; i < q.length; i++) {
      s0 += q[i] * all[offset + i];
    }
    return (double) s0 + s1 + s2 + s3;
  }
}
