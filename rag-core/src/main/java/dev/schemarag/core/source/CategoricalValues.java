package dev.schemarag.core.source;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which values of a text column the index shows, from what the planner's statistics sampled of it
 * (PostgreSQL's {@code pg_stats}): a column with few distinct values is categorical (a status, a
 * department's name, a product category), and a question that says one of its values ("the
 * Engineering department", "pending requests") names the column through it. A column with many
 * distinct values (names of people, e-mails, free text) shows none: its values would be noise, and
 * rows a user did not ask to be indexed. Reading statistics costs no scan of the user's tables.
 */
public final class CategoricalValues {

  /** A column with more distinct values than this is not categorical. */
  public static final int MAX_DISTINCT = 50;
  /** A longer value is free text, not a category. */
  public static final int MAX_LENGTH = 40;

  private CategoricalValues() {}

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
   * The values shown for one column, most common first, then the sampled bounds in their order.
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
    if (distinct > MAX_DISTINCT) {
      return List.of();
    }
    Set<String> out = new LinkedHashSet<>();
    List<String> all = new ArrayList<>(common);
    all.addAll(bounds);
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
