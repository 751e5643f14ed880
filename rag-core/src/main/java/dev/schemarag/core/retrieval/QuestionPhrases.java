package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The phrases a question is made of, cut at its connecting words ("revenue per product category in
 * 2024" is "revenue" and "product category"): each names one thing, and embedded alone it finds the
 * table of that thing where the whole question's vector, an average of all of them, finds none.
 */
final class QuestionPhrases {
  private QuestionPhrases() {}

  /** Words that join the things a question names, or frame what it asks of them (how many, which first, when). */
  static final Set<String> CONNECTORS = Set.of("a", "about", "above", "after", "all", "along", "also", "am", "among", "an", "and", "any",
      "are", "as", "at", "be", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
      "during", "each", "either", "every", "few", "for", "from", "give", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it",
      "its", "just", "least", "list", "many", "me", "more", "most", "much", "my", "no", "not", "of", "on", "only", "or", "other", "our",
      "ours", "over", "per", "please", "show", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "they",
      "this", "those", "through", "to", "under", "until", "us", "was", "we", "were", "what", "when", "where", "whether", "which", "while",
      "who", "whom", "whose", "why", "will", "with", "within", "without", "would", "you", "your", "top", "total", "number", "average",
      "count", "sum", "tell", "find", "get", "currently", "still", "ever", "now", "today", "yesterday", "year", "month", "week", "day",
      "days", "months", "years", "weeks", "last", "next", "first", "biggest", "largest", "smallest", "highest", "lowest", "best", "worst");

  /**
   * At most this many phrases, the longest: each costs an embedding (about 2 ms beside the question's own). On the
   * sample ERP set, two found every gold table that four did, with fewer tables that no gold SQL reads.
   */
  static final int MAX = 2;

  /**
   * The question's phrases of content words, longest first, without repeats; none when the question is a
   * single phrase (its own vector already is that phrase's).
   */
  static List<String> of(String question) {
    List<String> phrases = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String w : question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_']+")) {
      String word = w.replaceAll("'s?$", "");
      boolean cut = word.isEmpty() || CONNECTORS.contains(word) || word.chars().allMatch(Character::isDigit)
          || word.matches("q[1-4]");
      if (cut) {
        flush(current, phrases);
      } else {
        current.append(current.length() == 0 ? "" : " ").append(word);
      }
    }
    flush(current, phrases);
    Set<String> distinct = new LinkedHashSet<>(phrases);
    if (distinct.size() < 2) {
      return List.of();
    }
    List<String> out = new ArrayList<>(distinct);
    out.sort((a, b) -> Integer.compare(b.length(), a.length()));
    return List.copyOf(out.subList(0, Math.min(MAX, out.size())));
  }

  private static void flush(StringBuilder current, List<String> phrases) {
    if (current.length() > 0) {
      phrases.add(current.toString());
      current.setLength(0);
    }
  }
}
