package dev.schemarag.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads SQL text the way PostgreSQL's lexer does and rewrites it into one canonical form that
 * jsqlparser and PostgreSQL cannot read differently: comments (nested, as PostgreSQL nests them)
 * become a space, dollar-quoted strings become standard strings, {@code U&"…"} identifiers and
 * {@code U&'…'} strings are decoded (with their {@code UESCAPE}), and {@code E'…'} strings are
 * refused. The guard checks the canonical text and the executor runs that same text, so what was
 * checked is what runs. Also tells the statement's first keyword and every string literal's
 * content, so the guard can see whether jsqlparser swallowed code into a string.
 */
final class PgText {

  /** The text cannot be accepted; the message names why. */
  static final class Rejected extends Exception {
    Rejected(String message) {
      super(message);
    }
  }

  /**
   * @param text the canonical SQL
   * @param firstWord the first word of code in upper case, or {@code "("} when the text starts with a parenthesis
   * @param strings every string literal's content as it stands between the quotes (quotes doubled)
   */
  record Canonical(String text, String firstWord, List<String> strings) {}

  private PgText() {}

  static Canonical canonical(String sql) throws Rejected {
    StringBuilder out = new StringBuilder(sql.length());
    List<String> strings = new ArrayList<>();
    String first = null;
    boolean statementEnded = false;
    boolean afterName = false; // the last token was a name
    boolean afterQualifier = false; // the last tokens were a name and a '.'
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
          i++;
        }
        out.append(' ');
        continue;
      }
      if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        i = skipBlockComment(sql, i);
        out.append(' ');
        continue;
      }
      if (Character.isWhitespace(c)) {
        out.append(c);
        i++;
        continue;
      }
      boolean qualified = afterQualifier;
      afterQualifier = c == '.' && afterName;
      afterName = c == '"' || identifierStart(c);
      if (statementEnded && c != ';') {
        throw new Rejected("exactly one statement is allowed: text follows a ';'");
      }
      if (c == ';') {
        statementEnded = true;
        out.append(c);
        i++;
        continue;
      }
      if (first == null) {
        first = c == '(' ? "(" : null;
      }
      if (c == '\'') {
        int end = standardStringEnd(sql, i);
        String content = sql.substring(i + 1, end);
        strings.add(content);
        out.append('\'').append(content).append('\'');
        i = end + 1;
        continue;
      }
      if (c == '"') {
        int end = quotedIdentifierEnd(sql, i);
        out.append(sql, i, end + 1);
        i = end + 1;
        continue;
      }
      if (c == '$' && dollarTag(sql, i) != null) {
        String tag = dollarTag(sql, i);
        int close = sql.indexOf(tag, i + tag.length());
        if (close < 0) {
          throw new Rejected("a dollar-quoted string opened with " + tag + " is never closed");
        }
        String content = sql.substring(i + tag.length(), close).replace("'", "''");
        strings.add(content);
        out.append('\'').append(content).append('\'');
        i = close + tag.length();
        continue;
      }
      if (identifierStart(c)) {
        int end = i + 1;
        while (end < n && identifierPart(sql.charAt(end))) {
          end++;
        }
        String word = sql.substring(i, end);
        if (first == null) {
          first = word.toUpperCase(Locale.ROOT);
        }
        if (word.equalsIgnoreCase("e") && end < n && sql.charAt(end) == '\'') {
          throw new Rejected("E'…' escape strings are not accepted: write a standard string");
        }
        if (word.equalsIgnoreCase("u") && end + 1 < n && sql.charAt(end) == '&' && (sql.charAt(end + 1) == '\'' || sql.charAt(end + 1) == '"')) {
          i = unicodeEscaped(sql, end + 1, out, strings);
          continue;
        }
        // A name after "schema." or "alias." is an identifier to PostgreSQL whatever the word; quoted (as PostgreSQL
        // folds it) so that jsqlparser, which reserves more words (RETURNS, …), reads it as one too.
        out.append(qualified ? "\"" + word.toLowerCase(Locale.ROOT) + "\"" : word);
        i = end;
        continue;
      }
      if (first == null) {
        first = String.valueOf(c);
      }
      out.append(c);
      i++;
    }
    return new Canonical(out.toString(), first == null ? "" : first, List.copyOf(strings));
  }

  private static int skipBlockComment(String sql, int start) throws Rejected {
    int depth = 0;
    int i = start;
    int n = sql.length();
    while (i < n) {
      if (sql.startsWith("/*", i)) {
        depth++;
        i += 2;
      } else if (sql.startsWith("*/", i)) {
        depth--;
        i += 2;
        if (depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    throw new Rejected("a /* comment opened at character " + start + " is never closed");
  }

  /** Index of the closing quote of a standard string (backslashes are plain characters, '' is a quote). */
  private static int standardStringEnd(String sql, int start) throws Rejected {
    int i = start + 1;
    int n = sql.length();
    while (i < n) {
      if (sql.charAt(i) == '\'') {
        if (i + 1 < n && sql.charAt(i + 1) == '\'') {
          i += 2;
          continue;
        }
        return i;
      }
      i++;
    }
    throw new Rejected("a string literal opened at character " + start + " is never closed");
  }

  private static int quotedIdentifierEnd(String sql, int start) throws Rejected {
    int i = start + 1;
    int n = sql.length();
    while (i < n) {
      if (sql.charAt(i) == '"') {
        if (i + 1 < n && sql.charAt(i + 1) == '"') {
          i += 2;
          continue;
        }
        return i;
      }
      i++;
    }
    throw new Rejected("a quoted identifier opened at character " + start + " is never closed");
  }

  /** {@code $$} or {@code $tag$} starting at {@code i}, or null. */
  private static String dollarTag(String sql, int i) {
    int n = sql.length();
    int j = i + 1;
    if (j < n && sql.charAt(j) == '$') {
      return "$$";
    }
    if (j >= n || !identifierStart(sql.charAt(j))) {
      return null;
    }
    while (j < n && identifierPart(sql.charAt(j)) && sql.charAt(j) != '$') {
      j++;
    }
    return j < n && sql.charAt(j) == '$' ? sql.substring(i, j + 1) : null;
  }

  /** Decodes {@code U&'…'} or {@code U&"…"} whose quote is at {@code quoteAt}; returns the index after it (and its UESCAPE). */
  private static int unicodeEscaped(String sql, int quoteAt, StringBuilder out, List<String> strings) throws Rejected {
    char quote = sql.charAt(quoteAt);
    int end = quote == '\'' ? standardStringEnd(sql, quoteAt) : quotedIdentifierEnd(sql, quoteAt);
    String raw = sql.substring(quoteAt + 1, end).replace(quote == '\'' ? "''" : "\"\"", String.valueOf(quote));
    int next = end + 1;
    char escape = '\\';
    int k = next;
    while (k < sql.length() && Character.isWhitespace(sql.charAt(k))) {
      k++;
    }
    if (sql.regionMatches(true, k, "UESCAPE", 0, 7) && (k + 7 >= sql.length() || !identifierPart(sql.charAt(k + 7)))) {
      int q = k + 7;
      while (q < sql.length() && Character.isWhitespace(sql.charAt(q))) {
        q++;
      }
      if (q + 2 >= sql.length() || sql.charAt(q) != '\'' || sql.charAt(q + 2) != '\'') {
        throw new Rejected("UESCAPE must be followed by one character in quotes");
      }
      escape = sql.charAt(q + 1);
      if ("0123456789abcdefABCDEF+'\" \t\n\r".indexOf(escape) >= 0) {
        throw new Rejected("invalid UESCAPE character '" + escape + "'");
      }
      next = q + 3;
    }
    String decoded = decodeUnicode(raw, escape);
    if (decoded.indexOf('\0') >= 0) {
      throw new Rejected("a unicode escape decodes to a zero character");
    }
    if (quote == '\'') {
      String content = decoded.replace("'", "''");
      strings.add(content);
      out.append('\'').append(content).append('\'');
    } else {
      out.append('"').append(decoded.replace("\"", "\"\"")).append('"');
    }
    return next;
  }

  /** PostgreSQL's U& decoding: {@code \XXXX}, {@code \+XXXXXX} and a doubled escape character. */
  static String decodeUnicode(String raw, char escape) throws Rejected {
    StringBuilder sb = new StringBuilder(raw.length());
    int i = 0;
    while (i < raw.length()) {
      char c = raw.charAt(i);
      if (c != escape) {
        sb.append(c);
        i++;
        continue;
      }
      if (i + 1 < raw.length() && raw.charAt(i + 1) == escape) {
        sb.append(escape);
        i += 2;
      } else if (i + 1 < raw.length() && raw.charAt(i + 1) == '+' && hex(raw, i + 2, 6)) {
        sb.appendCodePoint(Integer.parseInt(raw.substring(i + 2, i + 8), 16));
        i += 8;
      } else if (hex(raw, i + 1, 4)) {
        sb.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
        i += 5;
      } else {
        throw new Rejected("invalid unicode escape at " + raw.substring(i, Math.min(raw.length(), i + 8)));
      }
    }
    return sb.toString();
  }

  private static boolean hex(String s, int from, int count) {
    if (from + count > s.length()) {
      return false;
    }
    for (int i = from; i < from + count; i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean identifierStart(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
  }

  private static boolean identifierPart(char c) {
    return identifierStart(c) || (c >= '0' && c <= '9') || c == '$';
  }

  /**
   * One identifier as PostgreSQL resolves it: a quoted name as written (doubled quotes undone), an
   * unquoted one folded to lower case. Expects canonical text (no U& forms left).
   */
  static String identifier(String raw) {
    if (raw.length() >= 2 && raw.startsWith("\"") && raw.endsWith("\"")) {
      return raw.substring(1, raw.length() - 1).replace("\"\"", "\"");
    }
    return raw.toLowerCase(Locale.ROOT);
  }

  /** A dotted name ({@code a."B".c}) split into its parts, each resolved as {@link #identifier}. */
  static List<String> qualifiedName(String raw) {
    List<String> parts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '"') {
        quoted = !quoted;
        cur.append(c);
      } else if (c == '.' && !quoted) {
        parts.add(identifier(cur.toString().strip()));
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    parts.add(identifier(cur.toString().strip()));
    return parts;
  }
}
