package dev.schemarag.core.source;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which values of a text column the index shows, from what the planner's statistics sampled of it
 * (PostgreSQL's {@code pg_stats}): a column with few distinct values is categorical (a status, a
 * department's name, a product category), and a question that says one of its values ("the
 * Engineering department", "pending requests") names the column through it. A column with many
 * distinct values shows no value: its values would be noise, and rows a user did not ask to be
 * indexed. It shows the words that sort its values into kinds, if any ("laptops" among the product
 * names), as patterns ({@link #kindPatterns}); e-mails, codes and free text have none, names of
 * people only a name that a twentieth of the rows share. Reading statistics costs no scan of the
 * user's tables.
 */
public final class CategoricalValues {

  /** A column with more distinct values than this is not categorical. */
  public static final int MAX_DISTINCT = 50;
  /** A longer value is free text, not a category. */
  public static final int MAX_LENGTH = 40;

  private CategoricalValues() {}

  /** A word in fewer of a many-valued column's samples than this share names a row (a person, one company), not a kind. */
  static final double KIND_MIN_SHARE = 0.05;
  /** A word in this share of the samples or more is the column's format ("model", "Main Street", "example.com"). */
  static final double FORMAT_SHARE = 0.5;

  /**
   * The words that sort a many-valued column's values into kinds (from its sampled values: the most common, then the
   * histogram's bounds), those that begin values first, then the most
   * frequent, each as the LIKE pattern its values match: product names "Laptop model 12", "Router model 4" give
   * {@code %Laptop%} and {@code %Router%}, company names "Acme GmbH 10" {@code %Acme%} before {@code %GmbH%}. A
   * pattern, not a value, so that a model writing SQL does not take it for one. A word counts once per sampled value;
   * it holds three letters or more and is in at least {@value #KIND_MIN_SHARE} of the samples (and two), and in fewer
   * than {@value #FORMAT_SHARE} of them. Free text (samples longer than
   * {@value #MAX_LENGTH} characters on average: messages, descriptions) has none: its common words are greetings.
   */
  static List<String> kindPatterns(List<String> sampled, int max) {
    Map<String, Integer> counts = new HashMap<>();
    Map<String, Integer> leads = new HashMap<>();
    Map<String, String> firstForm = new LinkedHashMap<>();
    int samples = 0;
    long length = 0;
    for (String v : sampled) {
      if (v == null || v.isBlank()) {
        continue;
      }
      samples++;
      length += v.length();
      Set<String> seen = new HashSet<>();
      for (String w : v.split("[^\\p{L}]+")) {
        String key = w.toLowerCase(Locale.ROOT);
        if (w.length() >= 3 && seen.add(key)) {
          if (seen.size() == 1 && v.strip().startsWith(w)) {
            leads.merge(key, 1, Integer::sum);
          }
          counts.merge(key, 1, Integer::sum);
          firstForm.putIfAbsent(key, w);
        }
      }
    }
    if (samples == 0 || length > (long) MAX_LENGTH * samples) {
      return List.of();
    }
    int least = Math.max(2, (int) Math.ceil(KIND_MIN_SHARE * samples));
    double format = FORMAT_SHARE * samples;
    // Words that begin values first ("Acme GmbH 10": the brand before its legal form), then the more frequent; a
    // stable sort, so of words alike the first sampled comes first.
    Comparator<Map.Entry<String, String>> order = Comparator.comparing(e -> -leads.getOrDefault(e.getKey(), 0));
    return firstForm.entrySet().stream()
        .filter(e -> counts.get(e.getKey()) >= least && counts.get(e.getKey()) < format)
        .sorted(order.thenComparing(e -> -counts.get(e.getKey())))
        .limit(max).map(e -> "%" + e.getValue() + "%").toList();
  }

  /** A value with a run of three letters or more says something ("Networking", "USD"); a code ("A-12", "CC100") does not. */
  static boolean hasWord(String value) {
    int run = 0;
    for (int i = 0; i < value.length(); i++) {
      run = Character.isLetter(value.charAt(i)) ? run + 1 : 0;
      if (run >= 3) {
        return true;
      }
    }
    return false;
  }

  /**
   * The values shown for one column, most common first, then the sampled bounds in their order; for a column
   * of more than {@value #MAX_DISTINCT} distinct values, its {@link #kindPatterns}.
   *
   * @param nDistinct  {@code pg_stats.n_distinct}: a count when positive, minus a share of the rows when negative
   * @param rows       the table's estimated rows ({@code pg_class.reltuples}; negative when never counted)
   * @param common     {@code most_common_vals}, most common first (empty when none)
   * @param bounds     {@code histogram_bounds} (empty when none)
   * @param max        values kept at most; 0 keeps none
   */
  public static List<String> pick(double nDistinct, double rows, List<String> common, List<String> bounds, int max) {
    if (max <= 0 || Double.isNaN(nDistinct) || nDistinct == 0) {
      return List.of();
    }
    double distinct = nDistinct > 0 ? nDistinct : rows > 0 ? -nDistinct * rows : Double.POSITIVE_INFINITY;
    List<String> all = new ArrayList<>(common);
    all.addAll(bounds);
    if (distinct > MAX_DISTINCT) {
      return kindPatterns(all, max);
    }
    Set<String> out = new LinkedHashSet<>();
    for (String v : all) {
      if (out.size() >= max) {
        break;
      }
      String s = v == null ? "" : v.strip();
      if (s.length() <= MAX_LENGTH && hasWord(s)) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }
}
