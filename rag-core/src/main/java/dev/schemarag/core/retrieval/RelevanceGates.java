package dev.schemarag.core.retrieval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The calibrated relevance gate of each embedding model, from {@code relevance-gates.properties}
 * (written from the figures of {@code ./schemarag calibrate}). A model with no calibration gets no
 * gate: it never refuses, rather than refusing by a number measured on another model. The same file
 * holds, as {@code <model>.pattern.tables}, the similarity to a documented query pattern from which
 * the pattern's tables join the packet, and as {@code <model>.phrase.tables} the similarity from which the
 * table nearest to one phrase of the question does; a model without them never adds such tables. As
 * {@code <model>.world.margin} it holds how much closer to the world's questions than to any table a
 * question may be before it is refused ({@link WorldQuestions}); a model without it never refuses so.
 */
public final class RelevanceGates {
  private RelevanceGates() {}

  private static final Properties GATES = load();

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = RelevanceGates.class.getResourceAsStream("relevance-gates.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  /** The model's calibrated gate, or 0 (no gate) when it has none. */
  public static double forModel(String embeddingModel) {
    return value(embeddingModel.trim());
  }

  /** The model's similarity from which a query pattern's tables join the packet, or 0 (never) when it has none. */
  public static double patternTables(String embeddingModel) {
    return value(embeddingModel.trim() + ".pattern.tables");
  }

  /** The model's similarity from which a phrase's nearest table joins the packet, or 0 (never) when it has none. */
  public static double phraseTables(String embeddingModel) {
    return value(embeddingModel.trim() + ".phrase.tables");
  }

  /** The model's margin by which a question closer to the world's questions than to the schema is refused, or 0 (never). */
  public static double worldMargin(String embeddingModel) {
    return value(embeddingModel.trim() + ".world.margin");
  }

  private static double value(String key) {
    String v = GATES.getProperty(key);
    return v == null ? 0 : Double.parseDouble(v.trim());
  }
}
