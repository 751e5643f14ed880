package dev.schemarag.core.access;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the names of hidden tables and columns out of text a principal will read (error messages,
 * lint findings, the repair prompt they feed): PostgreSQL's hints ("Perhaps you meant to reference
 * the column employees.salary") consider every column of a table, readable or not. A name the
 * question's own SQL already wrote is left as it is: echoing it discloses nothing, and redacting
 * only names that exist would tell which ones do.
 */
public final class ViewRedactor {

  public static final String HIDDEN = "(hidden)";
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*(?:\\.[A-Za-z_][A-Za-z0-9_$]*)*");

  private final Set<String> hidden = new HashSet<>();

  public ViewRedactor(SchemaModel full, SchemaView view) {
    Set<String> readableBare = new HashSet<>();
    Set<String> readableColumns = new HashSet<>();
    for (Table t : full.tables()) {
      if (view.canRead(t.name())) {
        readableBare.add(lower(bare(t.name())));
        t.columns().stream().filter(c -> view.canRead(t.name(), c.name())).forEach(c -> readableColumns.add(lower(c.name())));
      }
    }
    for (Table t : full.tables()) {
      boolean tableHidden = !view.canRead(t.name());
      if (tableHidden) {
        hidden.add(lower(t.name()));
        if (!readableBare.contains(lower(bare(t.name())))) {
          hidden.add(lower(bare(t.name())));
        }
      }
      for (Column c : t.columns()) {
        if (view.canRead(t.name(), c.name())) {
          continue;
        }
        hidden.add(lower(t.name() + "." + c.name()));
        hidden.add(lower(bare(t.name()) + "." + c.name()));
        if (!readableColumns.contains(lower(c.name()))) {
          hidden.add(lower(c.name()));
        }
      }
    }
  }

  /** Whether nothing is hidden: then {@link #redact} returns its input. */
  public boolean nothingHidden() {
    return hidden.isEmpty();
  }

  /**
   * @param text what the principal would read
   * @param echoed text the principal (or the model on its behalf) wrote, e.g. the SQL; names in it stay
   */
  public String redact(String text, String echoed) {
    if (text == null || hidden.isEmpty()) {
      return text;
    }
    Set<String> written = new HashSet<>();
    if (echoed != null) {
      Matcher e = NAME.matcher(echoed);
      while (e.find()) {
        String w = lower(e.group());
        written.add(w);
        for (String part : w.split("\\.")) {
          written.add(part);
        }
      }
    }
    Matcher m = NAME.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = lower(m.group());
      m.appendReplacement(out, Matcher.quoteReplacement(isHidden(name, written) ? HIDDEN : m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }

  private boolean isHidden(String name, Set<String> written) {
    if (written.contains(name)) {
      return false;
    }
    if (hidden.contains(name)) {
      return true;
    }
    // hr.salaries.amount, salaries.amount: any hidden part hides the whole name.
    for (String part : name.split("\\.")) {
      if (hidden.contains(part) && !written.contains(part)) {
        return true;
      }
    }
    String[] parts = name.split("\\.");
    for (int i = 0; i + 1 < parts.length; i++) {
      String pair = parts[i] + "." + parts[i + 1];
      if (hidden.contains(pair) && !written.contains(pair)) {
        return true;
      }
    }
    return false;
  }

  private static String bare(String table) {
    int dot = table.lastIndexOf('.');
    return dot < 0 ? table : table.substring(dot + 1);
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
