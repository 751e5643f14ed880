package dev.schemarag.core.sql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Deterministic checks on generated SQL before any EXPLAIN. Errors (unbalanced_parens,
 * unclosed_quote, trailing_comma_select, trailing_comma_groupby, trailing_comma_orderby,
 * join_without_condition, undefined_alias) go straight to repair; warnings (aggregate_without_groupby,
 * non_aggregate_in_select, duplicate_alias, ambiguous_column) travel with the attempt.
 */
public final class SqlLint {

  public enum Severity { ERROR, WARNING }

  /** One finding; {@code code} is stable and appears in the exam log. */
  public record Issue(String code, Severity severity, String message) {
    @Override
    public String toString() {
      return code + ": " + message;
    }
  }

  static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "array_agg", "string_agg", "bool_and",
      "bool_or", "every", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "json_agg", "jsonb_agg",
      "percentile_cont", "percentile_disc", "mode");

  private static final Pattern TRAILING_SELECT = Pattern.compile(",\\s*FROM\\b");
  private static final Pattern TRAILING_GROUP = Pattern.compile(
      "GROUP\\s+BY\\s[^;()]*?,\\s*(?=HAVING\\b|ORDER\\s+BY\\b|LIMIT\\b|OFFSET\\b|WINDOW\\b|UNION\\b|INTERSECT\\b|EXCEPT\\b|\\)|;|$)");
  private static final Pattern TRAILING_ORDER = Pattern.compile(
      "ORDER\\s+BY\\s[^;()]*?,\\s*(?=LIMIT\\b|OFFSET\\b|FETCH\\b|UNION\\b|\\)|;|$)");

  private SqlLint() {}

  public static boolean hasErrors(List<Issue> issues) {
    return issues.stream().anyMatch(i -> i.severity() == Severity.ERROR);
  }

  /** @param tableColumns the packet's tables and their columns (for ambiguous_column); may be empty */
  public static List<Issue> lint(String sql, Map<String, Set<String>> tableColumns) {
    List<Issue> issues = new ArrayList<>();
    Masked m = mask(sql);
    if (m.openQuote != 0) {
      issues.add(new Issue("unclosed_quote", Severity.ERROR, "a " + (m.openQuote == '\'' ? "string literal" : "quoted identifier")
          + " opened at character " + m.quoteAt + " is never closed"));
    }
    if (m.depth != 0 || m.negativeAt >= 0) {
      issues.add(new Issue("unbalanced_parens", Severity.ERROR, m.negativeAt >= 0
          ? "a ')' at character " + m.negativeAt + " closes nothing" : m.depth + " '(' never closed"));
    }
    String upper = m.text.toUpperCase(Locale.ROOT);
    if (TRAILING_SELECT.matcher(upper).find()) {
      issues.add(new Issue("trailing_comma_select", Severity.ERROR, "a comma right before FROM"));
    }
    if (TRAILING_GROUP.matcher(upper).find()) {
      issues.add(new Issue("trailing_comma_groupby", Severity.ERROR, "a comma at the end of GROUP BY"));
    }
    if (TRAILING_ORDER.matcher(upper).find()) {
      issues.add(new Issue("trailing_comma_orderby", Severity.ERROR, "a comma at the end of ORDER BY"));
    }
    if (!issues.isEmpty()) {
      return issues; // the text does not parse; structural checks would only repeat it
    }
    Statement st;
    try {
      st = CCJSqlParserUtil.parse(sql);
    } catch (Exception e) {
      return issues; // not parseable for other reasons: EXPLAIN gives the database's own message
    }
    try {
      structural(st, tableColumns, issues);
    } catch (RuntimeException e) {
      // jsqlparser's walkers refuse statements they do not know (CALL, SET): no structural finding, and the guard decides.
      return issues;
    }
    return issues;
  }

  private static void structural(Statement st, Map<String, Set<String>> tableColumns, List<Issue> issues) {
    ColumnWalker w = new ColumnWalker();
    w.tables = w.getTableList(st);
    Set<String> names = new HashSet<>();
    for (WithItem<?> with : w.withItems) {
      names.add(lower(with.getAliasName()));
    }
    Map<String, String> aliasToTable = new HashMap<>();
    for (PlainSelect ps : w.plainSelects) {
      List<FromItem> items = new ArrayList<>();
      if (ps.getFromItem() != null) {
        items.add(ps.getFromItem());
      }
      if (ps.getJoins() != null) {
        for (Join j : ps.getJoins()) {
          items.add(j.getFromItem());
          boolean hasCondition = (j.getOnExpressions() != null && !j.getOnExpressions().isEmpty())
              || (j.getUsingColumns() != null && !j.getUsingColumns().isEmpty());
          if (!j.isSimple() && !j.isCross() && !j.isNatural() && !hasCondition) {
            issues.add(new Issue("join_without_condition", Severity.ERROR, "JOIN " + j.getFromItem() + " has no ON or USING"));
          }
        }
      }
      Set<String> seen = new HashSet<>();
      for (FromItem fi : items) {
        String key = null;
        if (fi.getAlias() != null) {
          key = lower(fi.getAlias().getName());
          names.add(key);
        }
        if (fi instanceof Table t) {
          names.add(lower(t.getName()));
          names.add(lower(t.getFullyQualifiedName()));
          aliasToTable.put(key != null ? key : lower(t.getName()), lower(t.getFullyQualifiedName()));
          key = key != null ? key : lower(t.getName());
        }
        if (key != null && !seen.add(key)) {
          issues.add(new Issue("duplicate_alias", Severity.WARNING, "'" + key + "' names two tables in one FROM"));
        }
      }
      selectChecks(ps, issues);
    }
    for (Column c : w.columns) {
      Table t = c.getTable();
      if (t != null && t.getName() != null) {
        String q = lower(t.getName());
        String full = lower(t.getFullyQualifiedName());
        if (!names.contains(q) && !names.contains(full)) {
          issues.add(new Issue("undefined_alias", Severity.ERROR, "'" + t.getFullyQualifiedName() + "' in " + c
              + " is not a table or alias of the query"));
        }
      }
    }
    if (!tableColumns.isEmpty()) {
      Map<String, Set<String>> cols = new HashMap<>();
      tableColumns.forEach((k, v) -> {
        Set<String> lowered = new HashSet<>();
        v.forEach(x -> lowered.add(lower(x)));
        cols.put(SqlGuard.normalize(k), lowered);
      });
      Set<String> reported = new HashSet<>();
      for (PlainSelect ps : w.plainSelects) {
        ambiguity(ps, cols, w.selectAliases, reported, issues);
      }
    }
  }

  /** An unqualified column that two of this SELECT's own FROM/JOIN tables have. */
  private static void ambiguity(PlainSelect ps, Map<String, Set<String>> cols, Set<String> selectAliases, Set<String> reported,
                                List<Issue> issues) {
    List<String> tables = new ArrayList<>();
    List<Expression> expressions = new ArrayList<>();
    if (ps.getFromItem() instanceof Table t) {
      tables.add(SqlGuard.normalize(t.getFullyQualifiedName()));
    }
    if (ps.getJoins() != null) {
      for (Join j : ps.getJoins()) {
        if (j.getFromItem() instanceof Table t) {
          tables.add(SqlGuard.normalize(t.getFullyQualifiedName()));
        }
        if (j.getOnExpressions() != null) {
          expressions.addAll(j.getOnExpressions());
        }
      }
    }
    if (tables.size() < 2) {
      return;
    }
    if (ps.getSelectItems() != null) {
      ps.getSelectItems().forEach(i -> expressions.add(i.getExpression()));
    }
    if (ps.getWhere() != null) {
      expressions.add(ps.getWhere());
    }
    if (ps.getHaving() != null) {
      expressions.add(ps.getHaving());
    }
    for (Expression e : expressions) {
      ColumnWalker cw = new ColumnWalker();
      cw.getTableList(e);
      for (Column c : cw.columns) {
        if (c.getTable() != null && c.getTable().getName() != null) {
          continue;
        }
        String name = lower(c.getColumnName());
        long owners = tables.stream().filter(t -> cols.getOrDefault(t, Set.of()).contains(name)).count();
        if (owners >= 2 && !selectAliases.contains(name) && reported.add(name)) {
          issues.add(new Issue("ambiguous_column", Severity.WARNING, "'" + c.getColumnName() + "' exists in " + owners
              + " of the joined tables; qualify it"));
        }
      }
    }
  }

  private static void selectChecks(PlainSelect ps, List<Issue> issues) {
    List<SelectItem<?>> items = ps.getSelectItems() == null ? List.of() : ps.getSelectItems();
    Set<String> aliases = new HashSet<>();
    boolean aggregate = false;
    List<Column> bare = new ArrayList<>();
    for (SelectItem<?> item : items) {
      Alias a = item.getAlias();
      if (a != null && !aliases.add(lower(a.getName()))) {
        issues.add(new Issue("duplicate_alias", Severity.WARNING, "two select items are named '" + a.getName() + "'"));
      }
      Expression e = item.getExpression();
      if (e instanceof Function f && f.getName() != null && AGGREGATES.contains(lower(f.getName()))) {
        aggregate = true;
      } else if (e instanceof Column c) {
        bare.add(c);
      }
    }
    boolean grouped = ps.getGroupBy() != null && ps.getGroupBy().getGroupByExpressionList() != null
        && !ps.getGroupBy().getGroupByExpressionList().isEmpty();
    if (!grouped && aggregate && !bare.isEmpty()) {
      issues.add(new Issue("aggregate_without_groupby", Severity.WARNING, "aggregates next to " + bare.get(0)
          + " without GROUP BY"));
    }
    if (grouped) {
      Set<String> groupedBy = new HashSet<>();
      for (Object g : ps.getGroupBy().getGroupByExpressionList()) {
        groupedBy.add(lower(g.toString()));
        if (g instanceof Column gc) {
          groupedBy.add(lower(gc.getColumnName()));
        }
      }
      for (Column c : bare) {
        if (!groupedBy.contains(lower(c.toString())) && !groupedBy.contains(lower(c.getColumnName()))) {
          issues.add(new Issue("non_aggregate_in_select", Severity.WARNING, c + " is neither grouped nor aggregated"));
        }
      }
    }
  }

  private static String lower(String s) {
    return s == null ? "" : s.replace("\"", "").toLowerCase(Locale.ROOT);
  }

  /** The statement walker, also collecting column references and select-item aliases. */
  private static final class ColumnWalker extends StatementWalker {
    final List<Column> columns = new ArrayList<>();
    final Set<String> selectAliases = new HashSet<>();

    @Override
    public <S> Void visit(Column column, S context) {
      columns.add(column);
      return super.visit(column, context);
    }

    @Override
    public <S> Void visit(PlainSelect plainSelect, S context) {
      if (plainSelect.getSelectItems() != null) {
        plainSelect.getSelectItems().stream().filter(i -> i.getAlias() != null).forEach(i -> selectAliases.add(lower(i.getAlias().getName())));
      }
      return super.visit(plainSelect, context);
    }
  }

  /** The text with literals, quoted identifiers and comments blanked, plus what the scan found. */
  private record Masked(String text, int depth, int negativeAt, char openQuote, int quoteAt) {}

  static Masked mask(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int depth = 0;
    int negativeAt = -1;
    char quote = 0;
    int quoteAt = -1;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          if (i + 1 < n && sql.charAt(i + 1) == quote) { // doubled quote: an escaped one
            out.append("  ");
            i += 2;
            continue;
          }
          quote = 0;
          out.append(c);
        } else {
          out.append(' ');
        }
        i++;
        continue;
      }
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          out.append(' ');
          i++;
        }
        continue;
      }
      if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        int stop = end < 0 ? n : end + 2;
        while (i < stop) {
          out.append(' ');
          i++;
        }
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
        quoteAt = i;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
        if (depth < 0 && negativeAt < 0) {
          negativeAt = i;
          depth = 0;
        }
      }
      out.append(c);
      i++;
    }
    return new Masked(out.toString(), depth, negativeAt, quote, quoteAt);
  }
}
