package dev.schemarag.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads PostgreSQL object identities as {@code pg_event_trigger_ddl_commands()} writes them:
 * {@code schema.table}, {@code schema.table.column}, {@code constraint on schema.table}, with
 * double quotes around names that need them.
 */
final class ObjectIdentity {
  private ObjectIdentity() {}

  /** The dot-separated parts, unquoted ({@code "a.b"} inside quotes stays one part). */
  static List<String> parts(String identity) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < identity.length(); i++) {
      char ch = identity.charAt(i);
      if (ch == '"') {
        if (quoted && i + 1 < identity.length() && identity.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else {
          quoted = !quoted;
        }
      } else if (ch == '.' && !quoted) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(ch);
      }
    }
    out.add(cur.toString());
    return out;
  }

  /** The table a relation, column or constraint identity belongs to, as schema and table. */
  static Optional<String[]> table(String objectType, String identity) {
    String id = identity;
    if ("table constraint".equals(objectType)) {
      int on = identity.lastIndexOf(" on ");
      if (on < 0) {
        return Optional.empty();
      }
      id = identity.substring(on + 4);
    }
    List<String> p = parts(id);
    if (p.size() < 2) {
      return Optional.empty();
    }
    return Optional.of(new String[] {p.get(0), p.get(1)});
  }
}
