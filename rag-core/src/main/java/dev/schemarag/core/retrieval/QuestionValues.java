package dev.schemarag.core.retrieval;

import java.util.regex.Pattern;

/**
 * The question with its values taken out: quoted strings, numbers and dates, and capitalised names
 * within the sentence ("Where is Amy Firth's hometown?" reads "Where is hometown?"). A question
 * about one named person is still about the schema, but the name dominates its embedding; the
 * relevance gate looks at the question without it before refusing.
 */
final class QuestionValues {
  private QuestionValues() {}

  private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"|“[^”]*”|‘[^’]*’");
  private static final Pattern WITH_DIGITS = Pattern.compile("\\S*\\d\\S*");
  // A capitalised word after the first, with its possessive: names of people, places, companies.
  private static final Pattern NAME = Pattern.compile("(?<=\\S\\s)(\\p{Lu}[\\p{L}.\\-]*)(?:'s|’s)?");

  static String withoutValues(String question) {
    String q = QUOTED.matcher(question).replaceAll(" ");
    q = WITH_DIGITS.matcher(q).replaceAll(" ");
    q = NAME.matcher(q).replaceAll(m -> m.group(1).length() == 1 ? m.group() : " ");
    return q.replaceAll("\\s+", " ").trim();
  }
}
