package dev.schemarag.core.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A question's words (runs of letters) as the checks against the schema's own words read them:
 * quoted values are no words, and a word with capitals inside it, or capitalised after the
 * question's first word, is marked as a name or code: it names data, not the schema.
 */
public final class QuestionWords {

  private static final Pattern WORD = Pattern.compile("\\p{L}+");
  private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");

  /** One word, where it stands in the question, and whether it is written as a name. */
  public record Word(String text, int start, int end, boolean capitalised) {
    public String lower() {
      return text.toLowerCase(Locale.ROOT);
    }
  }

  private QuestionWords() {}

  /** The question's words in order, quoted values left out. */
  public static List<Word> of(String question) {
    String unquoted = QUOTED.matcher(question).replaceAll(m -> " ".repeat(m.group().length()));
    Matcher m = WORD.matcher(unquoted);
    List<Word> out = new ArrayList<>();
    boolean first = true;
    while (m.find()) {
      String w = m.group();
      boolean capitalised = !w.substring(1).equals(w.substring(1).toLowerCase(Locale.ROOT)) || (!first && Character.isUpperCase(w.charAt(0)));
      first = false;
      out.add(new Word(w, m.start(), m.end(), capitalised));
    }
    return out;
  }
}
