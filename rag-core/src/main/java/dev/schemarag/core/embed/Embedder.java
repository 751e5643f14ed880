package dev.schemarag.core.embed;

import java.util.List;

/** Turns texts into unit-length vectors; one model, identified by {@link #modelId()}. */
public interface Embedder {

  /** Stored with every vector: a different id means the vector must be recomputed. */
  String modelId();

  int dimension();

  /** One vector per text, in order. */
  List<float[]> embedAll(List<String> texts);

  default float[] embed(String text) {
    return embedAll(List.of(text)).get(0);
  }

  /** Several questions, each as {@link #embed} gives it, in one call to the model where it takes them together. */
  default List<float[]> embedQuestions(List<String> texts) {
    return texts.stream().map(this::embed).toList();
  }
}
