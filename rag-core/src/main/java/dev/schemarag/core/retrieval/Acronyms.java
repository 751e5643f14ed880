package dev.schemarag.core.retrieval;

import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Acronyms of the schema's own identifiers: a question that writes "POs" where the schema says
 * {@code purchase_orders} matches nothing by meaning. An acronym written in capitals is read as
 * the initials of the multi-word table and column names that have them, and their words are put
 * beside it ("POs (purchase orders)"). When the schema's text has the acronym as a word of its own
 * ("TV" in {@code tv_channels}, "ID" everywhere), it is read only as the name of a table that
 * uses it as a word of one of its names ({@code purchase_orders} with its {@code po_id}).
 */
final class Acronyms {

  /** The most capitals read as an acronym. */
  static final int MAX_LETTERS = 6;
  /** Two to {@link #MAX_LETTERS} capitals, a plural or possessive after them; not inside a longer word or code. */
  private static final Pattern ACRONYM = Pattern.compile("(?<![\\p{L}\\d'\"])(\\p{Lu}{2," + MAX_LETTERS + "})(?:'?s)?(?![\\p{L}\\d])");
  /** More readings than this and the acronym says nothing: it is left as written. */
  static final int MAX_READINGS = 3;

  private Acronyms() {}

  /**
   * The question with each unknown acronym followed by the identifiers' words it abbreviates, in
   * brackets; the question itself when there is none.
   *
   * @param known whether the schema's text has this lower-case word (then the capitals may be a word of their own: "ID", "TV")
   */
  static String expanded(String question, SchemaModel model, Predicate<String> known) {
    return expanded(question, known, (letters, ownUse) -> readings(letters, model, ownUse));
  }

  /** As above, with the readings of an acronym from {@code readings} (a version's memo of them). */
  static String expanded(String question, Predicate<String> known, java.util.function.BiFunction<String, Boolean, Set<String>> readings) {
    Matcher m = ACRONYM.matcher(question);
    StringBuilder out = null;
    int last = 0;
    while (m.find()) {
      if (partOfAName(question, m.start(), m.end())) {
        continue;
      }
      String letters = m.group(1).toLowerCase(Locale.ROOT);
      Set<String> read = readings.apply(letters, known.test(letters));
      if (read.isEmpty() || read.size() > MAX_READINGS) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder();
      }
      out.append(question, last, m.end()).append(" (").append(String.join(", ", read)).append(')');
      last = m.end();
    }
    return out == null ? question : out.append(question.substring(last)).toString();
  }

  private static final Pattern LAST_WORD = Pattern.compile("(\\p{L}+)[\\s,]*$");
  private static final Pattern FIRST_WORD = Pattern.compile("^\\P{L}*\\p{L}+");
  private static final Pattern NEXT_WORD = Pattern.compile("^\\s+(\\p{L})");

  /**
   * Beside a capitalised word, capitals belong to a name ("Globex SA", "DC Comics"), not the
   * schema; the question's first word is capitalised as any sentence's is.
   */
  private static boolean partOfAName(String question, int start, int end) {
    Matcher after = NEXT_WORD.matcher(question.substring(end));
    if (after.find() && Character.isUpperCase(after.group(1).charAt(0))) {
      return true;
    }
    Matcher before = LAST_WORD.matcher(question.substring(0, start));
    if (!before.find() || !Character.isUpperCase(before.group(1).charAt(0))) {
      return false;
    }
    Matcher first = FIRST_WORD.matcher(question);
    return !(first.find() && first.end() == before.end(1));
  }

  /**
   * The words of every table and column name of two or more words whose initials are
   * {@code letters}; with {@code ownUse}, only the names of tables that also have {@code letters}
   * as a word of one of their names.
   */
  static Set<String> readings(String letters, SchemaModel model, boolean ownUse) {
    Set<String> out = new LinkedHashSet<>();
    for (Table t : model.tables()) {
      String local = t.name().substring(t.name().lastIndexOf('.') + 1);
      if (ownUse) {
        Set<String> own = new LinkedHashSet<>();
        addIfInitials(letters, local, own);
        if (!own.isEmpty() && usesWord(t, letters)) {
          out.addAll(own);
        }
        continue;
      }
      addIfInitials(letters, local, out);
      for (Column c : t.columns()) {
        addIfInitials(letters, c.name(), out);
      }
    }
    return out;
  }

  /**
   * Every acronym whose readings {@code t} can alter: the initials of its multi-word table and
   * column names, and the words of its names (an acronym that is one of them reads only tables using it).
   */
  static Set<String> lettersOf(Table t) {
    Set<String> out = new java.util.HashSet<>();
    String local = t.name().substring(t.name().lastIndexOf('.') + 1);
    addInitials(local, out);
    out.addAll(Identifiers.words(t.name()));
    for (Column c : t.columns()) {
      addInitials(c.name(), out);
      out.addAll(Identifiers.words(c.name()));
    }
    return out;
  }

  private static void addInitials(String identifier, Set<String> out) {
    List<String> words = Identifiers.words(identifier);
    if (words.size() >= 2) {
      out.add(initials(words));
    }
  }

  /** The first letters of the words (as {@link Identifiers#words} gives them), what an acronym of them is. */
  static String initials(List<String> words) {
    StringBuilder initials = new StringBuilder();
    words.forEach(w -> initials.append(w.charAt(0)));
    return initials.toString();
  }

  private static boolean usesWord(Table t, String word) {
    if (Identifiers.words(t.name()).contains(word)) {
      return true;
    }
    for (Column c : t.columns()) {
      if (Identifiers.words(c.name()).contains(word)) {
        return true;
      }
    }
    return false;
  }

  private static void addIfInitials(String letters, String identifier, Set<String> out) {
    // Cheap rejections first: this runs over every column of the schema.
    if (identifier.isEmpty() || Character.toLowerCase(identifier.charAt(0)) != letters.charAt(0)) {
      return;
    }
    List<String> words = Identifiers.words(identifier);
    if (words.size() != letters.length()) {
      return;
    }
    for (int i = 0; i < words.size(); i++) {
      if (words.get(i).charAt(0) != letters.charAt(i)) {
        return;
      }
    }
    out.add(String.join(" ", words));
  }
}
