package dev.schemarag.core.text;

/**
 * Schema text on its way into a prompt. Comments, documentation and even identifiers are written
 * by whoever may run COMMENT ON or CREATE TABLE, so none may open a new line that reads like an
 * instruction: newlines and other control or invisible formatting characters become a space, the
 * prompt's own section markers are broken up, and each object's text is capped.
 */
public final class PromptData {
  private PromptData() {}

  /** The most characters of one object (a table with its columns and comment, a join path, a documented query) in a prompt. */
  public static final int MAX_OBJECT_CHARS = 2_000;
  /** The most characters of one comment or doc text within an object. */
  public static final int MAX_COMMENT_CHARS = 400;

  /** The text on one line: control, line-separator and bidi/format characters replaced by a space, runs of spaces collapsed, capped. */
  public static String line(String text, int maxChars) {
    if (text == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(Math.min(text.length(), maxChars));
    boolean space = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      boolean blank = Character.isWhitespace(cp) || Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT
          || cp == 0x2028 || cp == 0x2029;
      if (blank) {
        space = sb.length() > 0;
        continue;
      }
      if (space) {
        sb.append(' ');
        space = false;
      }
      sb.appendCodePoint(cp);
    }
    String out = sb.toString().replace("<<<", "< < <").replace(">>>", "> > >");
    return out.length() > maxChars ? out.substring(0, Math.max(0, maxChars - 1)) + "…" : out;
  }

  /**
   * A table's compact DDL ({@code name (col type, …) -- comment}) on one line: the comment capped
   * at {@link #MAX_COMMENT_CHARS}, the whole at {@link #MAX_OBJECT_CHARS}.
   */
  public static String tableLine(String compactDdl) {
    String flat = line(compactDdl, Integer.MAX_VALUE);
    int cut = flat.indexOf(") -- ");
    if (cut >= 0) {
      flat = flat.substring(0, cut + 5) + line(flat.substring(cut + 5), MAX_COMMENT_CHARS);
    }
    return line(flat, MAX_OBJECT_CHARS);
  }
}
