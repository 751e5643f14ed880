package dev.schemarag.core.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Splits identifiers into words: snake_case, camelCase, PascalCase, acronyms, digits. */
public final class Identifiers {
  private Identifiers() {}

  public static List<String> words(String identifier) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int n = identifier.length();
    for (int i = 0; i < n; i++) {
      char c = identifier.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        flush(cur, out);
        continue;
      }
      if (cur.length() > 0) {
        char prev = identifier.charAt(i - 1);
        boolean boundary =
            (Character.isLowerCase(prev) && Character.isUpperCase(c))
                || (Character.isLetter(prev) && Character.isDigit(c))
                || (Character.isDigit(prev) && Character.isLetter(c))
                // end of an acronym: "HTTPServer" -> HTTP | Server
                || (Character.isUpperCase(prev) && Character.isUpperCase(c) && i + 1 < n && Character.isLowerCase(identifier.charAt(i + 1)));
        if (boundary) {
          flush(cur, out);
        }
      }
      cur.append(c);
    }
    flush(cur, out);
    return out;
  }

  private static void flush(StringBuilder cur, List<String> out) {
    if (cur.length() > 0) {
      out.add(cur.toString().toLowerCase(Locale.ROOT));
      cur.setLength(0);
    }
  }

  /** The identifier as readable words: {@code order_items} -> {@code order items}. */
  public static String readable(String identifier) {
    return String.join(" ", words(identifier));
  }
}
