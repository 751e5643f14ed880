package dev.schemarag.core.retrieval;

import dev.schemarag.core.search.SchemaAnalyzer;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The parts of a question the relevance gate asks before refusing it: its clauses, and the question with
 * its values taken out: quoted strings, numbers and dates, and capitalised names within the sentence
 * ("Where is Amy Firth's hometown?" reads "Where is hometown?"). A question about one named person is
 * still about the schema, but the name dominates its embedding. Last, that question without the words that
 * frame it ({@link #withoutFraming}).
 */
final class QuestionValues {
  private QuestionValues() {}

  private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"|“[^”]*”|‘[^’]*’");
  private static final Pattern WITH_DIGITS = Pattern.compile("\\S*\\d\\S*");
  // A capitalised word after the first, with its possessive: names of people, places, companies.
  private static final Pattern NAME = Pattern.compile("(?<=\\S\\s)(\\p{Lu}[\\p{L}.\\-]*)(?:'s|’s)?");

  /** Words a clause holds at least to be asked on its own: "and since when" says too little by itself. */
  static final int CLAUSE_WORDS = 3;
  /** Clauses asked at most, the first ones: each costs an embedding, and a long paste has hundreds. */
  static final int MAX_CLAUSES = 4;
  private static final Pattern CLAUSE_BREAK = Pattern.compile("\\s*(?:[,;:?!]|\\band\\b)\\s*", Pattern.CASE_INSENSITIVE);

  /**
   * The question's first {@value #MAX_CLAUSES} clauses (split at a comma, semicolon, colon, question or exclamation
   * mark, and at "and") of {@value #CLAUSE_WORDS} words or more; empty when it is one clause. A question that asks
   * two things ("What does Litware charge per unit for switches, and how fast can they deliver?") embeds as their
   * average, which may say less of the schema than either part.
   */
  static List<String> clauses(String question) {
    String[] split = CLAUSE_BREAK.split(question.trim());
    List<String> out = new ArrayList<>();
    for (String c : split) {
      if (out.size() < MAX_CLAUSES && !c.isBlank() && c.trim().split("\\s+").length >= CLAUSE_WORDS) {
        out.add(c.trim());
      }
    }
    return split.length > 1 ? out : List.of();
  }

  /**
   * What the relevance gate asks below the gate, besides the question: its clauses ({@link #clauses}), then the
   * question without its values ({@link #withoutValues}) when that differs from it, then that without the words that
   * frame it ({@link #withoutFraming}) when that differs again.
   */
  static List<String> parts(String question) {
    List<String> out = new ArrayList<>(clauses(question));
    String plain = withoutValues(question);
    if (!plain.isBlank() && !plain.equals(question.trim())) {
      out.add(plain);
    }
    String bare = withoutFraming(plain);
    if (!bare.isBlank() && !bare.equals(plain) && !bare.equals(question.trim())) {
      out.add(bare);
    }
    return out;
  }

  /**
   * The question without the words that frame it ({@link SchemaAnalyzer#FRAMING_WORDS}: "how many", "did", "please"): in
   * a short question they weigh on its vector as much as what it asks ("how many keyboards did customers order in 2024"
   * scores 0.33, under the gate, where the words it asks about score more).
   */
  static String withoutFraming(String question) {
    StringBuilder out = new StringBuilder();
    for (String w : question.trim().split("\\s+")) {
      String letters = w.replaceAll("[^\\p{L}]", "").toLowerCase(java.util.Locale.ROOT);
      if (!SchemaAnalyzer.FRAMING_WORDS.contains(letters)) {
        out.append(out.length() == 0 ? "" : " ").append(w);
      }
    }
    return out.toString();
  }

  static String withoutValues(String question) {
    String q = QUOTED.matcher(question).replaceAll(" ");
    q = WITH_DIGITS.matcher(q).replaceAll(" ");
    q = NAME.matcher(q).replaceAll(m -> m.group(1).length() == 1 ? m.group() : " ");
    return q.replaceAll("\\s+", " ").trim();
  }
}
