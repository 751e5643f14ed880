package dev.schemarag.core.answer;

import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.embed.Vectors;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.text.EditDistance;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * For an undefined column (42703): the table the failing alias resolves to, its valid columns with
 * types, the closest names by spelling and by meaning, and the instruction to choose only from them.
 */
public final class MissingColumnHint {
  private MissingColumnHint() {}

  /** PostgreSQL: {@code column o.totl does not exist} or {@code column "totl" does not exist}. */
  private static final Pattern MISSING = Pattern.compile("column \"?(?:([\\w$]+)\\.)?([\\w$]+)\"? does not exist");

  public static String hint(String sql, String error, SchemaModel model, Optional<Embedder> embedder) {
    Matcher m = MISSING.matcher(error == null ? "" : error);
    if (!m.find()) {
      return "";
    }
    String alias = m.group(1);
    String missing = m.group(2);
    Map<String, String> aliases = aliases(sql);
    List<Table> candidates = alias != null
        ? Optional.ofNullable(aliases.get(alias.toLowerCase(Locale.ROOT))).flatMap(t -> table(model, t)).stream().toList()
        : aliases.values().stream().distinct().map(t -> table(model, t)).flatMap(Optional::stream).toList();
    if (candidates.isEmpty()) {
      return "Column " + missing + " does not exist.";
    }
    StringBuilder sb = new StringBuilder();
    for (Table t : candidates) {
      sb.append(alias != null ? "Alias " + alias + " is table " : "Table ").append(t.name()).append(". Its columns: ");
      sb.append(String.join(", ", t.columns().stream().map(c -> c.name() + " " + c.type()).toList())).append(".\n");
      sb.append("Closest by name to ").append(missing).append(": ")
          .append(String.join(", ", closestByName(t, missing))).append(".\n");
      embedder.ifPresent(e -> sb.append("Closest by meaning: ").append(String.join(", ", closestByMeaning(t, missing, e))).append(".\n"));
    }
    sb.append("Choose only from these columns.");
    return sb.toString();
  }

  static Map<String, String> aliases(String sql) {
    Map<String, String> out = new HashMap<>();
    try {
      if (CCJSqlParserUtil.parse(sql) instanceof Select s && s.getPlainSelect() != null) {
        PlainSelect ps = s.getPlainSelect();
        add(out, ps.getFromItem());
        if (ps.getJoins() != null) {
          for (Join j : ps.getJoins()) {
            add(out, j.getFromItem());
          }
        }
      }
    } catch (Exception e) {
      // unparseable SQL: no aliases to resolve
    }
    return out;
  }

  private static void add(Map<String, String> out, FromItem fi) {
    if (fi instanceof net.sf.jsqlparser.schema.Table t) {
      String name = t.getFullyQualifiedName().replace("\"", "");
      out.put(t.getName().toLowerCase(Locale.ROOT), name);
      if (t.getAlias() != null) {
        out.put(t.getAlias().getName().toLowerCase(Locale.ROOT), name);
      }
    }
  }

  private static Optional<Table> table(SchemaModel model, String name) {
    String n = name.toLowerCase(Locale.ROOT);
    String bare = n.startsWith("public.") ? n.substring(7) : n;
    return model.tables().stream().filter(t -> t.name().equalsIgnoreCase(bare) || t.name().equalsIgnoreCase(n)).findFirst();
  }

  static List<String> closestByName(Table t, String missing) {
    return t.columns().stream().map(Column::name)
        .sorted(Comparator.comparingInt((String c) -> EditDistance.between(c.toLowerCase(Locale.ROOT), missing.toLowerCase(Locale.ROOT))).thenComparing(c -> c))
        .limit(3).toList();
  }

  static List<String> closestByMeaning(Table t, String missing, Embedder e) {
    float[] q = e.embed(Identifiers.readable(missing));
    List<String> names = t.columns().stream().map(Column::name).toList();
    List<float[]> vs = e.embedAll(names.stream().map(n -> Identifiers.readable(t.name()) + " " + Identifiers.readable(n)).toList());
    Map<String, Double> sim = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      sim.put(names.get(i), Vectors.dot(q, vs.get(i)));
    }
    return names.stream().sorted(Comparator.comparingDouble((String n) -> -sim.get(n))).limit(3).toList();
  }
}
