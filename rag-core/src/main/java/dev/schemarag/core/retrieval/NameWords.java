package dev.schemarag.core.retrieval;

import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.embed.Vectors;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.EnglishWords;
import dev.schemarag.core.search.QuestionWords;
import dev.schemarag.core.search.SchemaAnalyzer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The words of a schema's table and column names, each with its vector once a question needs it.
 * A business user says "vendors", "vocalists" or "staff" where the schema says {@code supplier},
 * {@code singer} and {@code employee}: a word the schema's text never says matches nothing in BM25.
 * Such a word is searched lexically as the name words the embedding model puts nearest to it (a
 * cosine of {@value #SIMILARITY} or more, at most {@value #PER_WORD}), weighted by that cosine. The
 * word alone is embedded, not the question: the question's other words would pull its vector
 * towards everything else it asks.
 */
final class NameWords {

  /** Below it, single words of the default model are related rather than alike ("equipment" and "products" 0.54). */
  static final double SIMILARITY = 0.6;
  static final int PER_WORD = 2;
  /** Shorter words are too often abbreviations or parts of codes. */
  static final int MIN_LENGTH = 3;
  private static final int BATCH = 256;

  /**
   * Vectors of the name words that are no English words ("qty"), shared by the versions and views of
   * one index: a word's vector does not change with the schema.
   */
  private final Map<String, float[]> vectors = new ConcurrentHashMap<>();
  /**
   * The vectors of the tokenizer's English words that a process has embedded, per model: a word's
   * vector is the same for every index. Filled as questions and indexes need words, and whole by
   * {@link #preload} (21,722 words for all-MiniLM-L6-v2's tokenizer, about 40 s on two cores), which
   * a service runs at start so that later questions make no call to the model for their unknown
   * words; a question never waits for the whole list.
   */
  private static final Map<String, Map<String, float[]>> ENGLISH = new ConcurrentHashMap<>();

  /** The lower-case words of every table's and column's name (a union schema's database prefix included). */
  static Set<String> of(SchemaModel model) {
    return of(model.tables());
  }

  /** The lower-case words of these tables' and their columns' names. */
  static Set<String> of(java.util.Collection<Table> tables) {
    Set<String> out = new LinkedHashSet<>();
    for (Table t : tables) {
      addWords(t.name().substring(t.name().lastIndexOf('.') + 1), out);
      for (Column c : t.columns()) {
        addWords(c.name(), out);
      }
    }
    return out;
  }

  private static void addWords(String identifier, Set<String> out) {
    for (String w : Identifiers.words(identifier)) {
      if (w.length() >= MIN_LENGTH && w.chars().allMatch(Character::isLetter) && !SchemaAnalyzer.stems(w).isEmpty()) {
        out.add(w);
      }
    }
  }

  /**
   * The question's words the schema's text does not know, as written or by its stem ({@code knows}):
   * an English word ({@link EnglishWords}: its vector is at hand), at least {@value #MIN_LENGTH}
   * letters, no stop or framing word. Quoted values and
   * words with capitals inside or after the first word (names, codes) are left out: they name data.
   */
  static List<String> unknown(String question, Predicate<String> knows) {
    List<String> out = new ArrayList<>();
    for (QuestionWords.Word w : QuestionWords.of(question)) {
      String lower = w.lower();
      if (w.capitalised() || lower.length() < MIN_LENGTH || out.contains(lower) || !EnglishWords.contains(lower)
          || SchemaAnalyzer.stems(lower).isEmpty() || knows.test(lower)) {
        continue;
      }
      out.add(lower);
    }
    return out;
  }

  /** A version's name words with their vectors (length 1), side by side: what each unknown word is compared with. */
  record Vocabulary(String[] words, float[][] vectors) {}

  /**
   * The vocabulary of {@code names}. An English word is embedded once in a process; a name word that
   * is none of them ("qty", "uom") once for each index that needs it.
   */
  Vocabulary vocabulary(Set<String> names, Embedder embedder) {
    Map<String, float[]> english = english(embedder, names);
    List<String> missing = names.stream().filter(w -> !english.containsKey(w) && !vectors.containsKey(w)).toList();
    vectors.putAll(unitVectors(embedder, missing));
    String[] words = names.toArray(String[]::new);
    float[][] v = new float[words.length][];
    for (int i = 0; i < words.length; i++) {
      float[] e = english.get(words[i]);
      v[i] = e == null ? vectors.get(words[i]) : e;
    }
    return new Vocabulary(words, v);
  }

  /** {@code before} with the words of {@code added} it does not hold yet. */
  Vocabulary extended(Vocabulary before, Set<String> added, Embedder embedder) {
    Set<String> had = new java.util.HashSet<>(List.of(before.words()));
    List<String> fresh = added.stream().filter(w -> !had.contains(w)).toList();
    if (fresh.isEmpty()) {
      return before;
    }
    Vocabulary more = vocabulary(new LinkedHashSet<>(fresh), embedder);
    String[] words = java.util.Arrays.copyOf(before.words(), before.words().length + fresh.size());
    float[][] vectors = java.util.Arrays.copyOf(before.vectors(), words.length);
    System.arraycopy(more.words(), 0, words, before.words().length, fresh.size());
    System.arraycopy(more.vectors(), 0, vectors, before.vectors().length, fresh.size());
    return new Vocabulary(words, vectors);
  }

  /**
   * For each of {@code words} (English words: {@link #unknown}), the name words of {@code vocabulary}
   * nearest to it by cosine, from {@value #SIMILARITY}, at most {@value #PER_WORD} each; by name
   * word, its best cosine. One call to the model for the words this process has not embedded yet.
   */
  static Map<String, Double> nearest(List<String> words, Vocabulary vocabulary, Embedder embedder) {
    Map<String, float[]> english = english(embedder, words);
    Map<String, Double> out = new HashMap<>();
    for (String w : words) {
      float[] a = english.get(w);
      if (a == null) {
        continue;
      }
      String[] best = new String[PER_WORD];
      double[] sim = new double[PER_WORD];
      java.util.Arrays.fill(sim, SIMILARITY);
      for (int i = 0; i < vocabulary.words().length; i++) {
        double s = Vectors.dot(a, vocabulary.vectors()[i]);
        if (s >= sim[PER_WORD - 1]) {
          int at = PER_WORD - 1;
          while (at > 0 && s > sim[at - 1]) {
            sim[at] = sim[at - 1];
            best[at] = best[at - 1];
            at--;
          }
          sim[at] = s;
          best[at] = vocabulary.words()[i];
        }
      }
      for (int k = 0; k < PER_WORD; k++) {
        if (best[k] != null) {
          out.merge(best[k], sim[k], Math::max);
        }
      }
    }
    return out;
  }

  /** The model's English vectors, holding those of {@code needed}'s English words. */
  private static Map<String, float[]> english(Embedder embedder, java.util.Collection<String> needed) {
    Map<String, float[]> english = englishOf(embedder);
    List<String> missing = needed.stream().filter(w -> EnglishWords.contains(w) && !english.containsKey(w)).distinct().toList();
    english.putAll(unitVectors(embedder, missing));
    return english;
  }

  /**
   * Embeds every English word the model has no vector for yet in this process, a batch at a time,
   * until {@code stop} says so; returns how many it embedded.
   */
  static int preload(Embedder embedder, java.util.function.BooleanSupplier stop) {
    Map<String, float[]> english = englishOf(embedder);
    List<String> missing = EnglishWords.all().stream().filter(w -> !english.containsKey(w)).toList();
    int done = 0;
    for (int i = 0; i < missing.size() && !stop.getAsBoolean(); i += BATCH) {
      List<String> batch = missing.subList(i, Math.min(missing.size(), i + BATCH));
      english.putAll(unitVectors(embedder, batch));
      done += batch.size();
    }
    return done;
  }

  private static Map<String, float[]> englishOf(Embedder embedder) {
    return ENGLISH.computeIfAbsent(embedder.modelId(), id -> new ConcurrentHashMap<>());
  }

  private static Map<String, float[]> unitVectors(Embedder embedder, List<String> words) {
    Map<String, float[]> out = new HashMap<>();
    for (int i = 0; i < words.size(); i += BATCH) {
      List<String> batch = words.subList(i, Math.min(words.size(), i + BATCH));
      List<float[]> v = embedder.embedAll(batch);
      for (int j = 0; j < batch.size(); j++) {
        out.put(batch.get(j), Vectors.normalize(v.get(j)));
      }
    }
    return out;
  }
}
