package dev.schemarag.core.sql;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Every node of a parsed statement, reached by reflection over jsqlparser's syntax tree rather
 * than through its visitors: a visitor only sees the positions it was written for, and
 * jsqlparser's {@code TablesNamesFinder} skips sub-queries in an aggregate's ORDER BY or in
 * XMLTABLE's PASSING. Reflection sees every field, so a sub-query is found wherever it stands.
 * Collects the relations read (FROM and JOIN items; a column's qualifier is not one), every
 * function called, every SELECT, every CTE, every string literal and the nodes that have no
 * place in a read-only answer (bind parameters, NEXT VALUE FOR, session variables).
 */
final class SyntaxSweep {

  /** Fields holding a table that is not read: a column's qualifier, an alias's resolution, FOR UPDATE OF, SELECT INTO. */
  private static final Set<String> NOT_READ = Set.of("Column.table", "Column.resolvedTable", "Table.resolvedTable",
      "AllTableColumns.table", "ForUpdateClause.tables", "Select.forUpdateTables", "PlainSelect.intoTables",
      "PlainSelect.intoTempTable");
  private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
    @Override
    protected List<Field> computeValue(Class<?> type) {
      List<Field> out = new ArrayList<>();
      for (Class<?> k = type; k != null && inJsqlparser(k); k = k.getSuperclass()) {
        for (Field f : k.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic() || f.getType().isPrimitive()
              || NOT_READ.contains(k.getSimpleName() + "." + f.getName())) {
            continue;
          }
          f.setAccessible(true);
          out.add(f);
        }
      }
      return out;
    }
  };

  final List<Table> tables = new ArrayList<>();
  final List<String> functions = new ArrayList<>();
  final List<Select> selects = new ArrayList<>();
  final List<WithItem<?>> withItems = new ArrayList<>();
  final List<String> strings = new ArrayList<>();
  final List<String> forbidden = new ArrayList<>();
  private final Map<Object, Boolean> seen = new IdentityHashMap<>();

  private SyntaxSweep() {}

  static SyntaxSweep of(Object root) {
    SyntaxSweep s = new SyntaxSweep();
    s.visit(root);
    return s;
  }

  private void visit(Object node) {
    if (node == null || node instanceof String || node instanceof Number || node instanceof Boolean || node instanceof Enum<?>
        || node instanceof Character || seen.put(node, Boolean.TRUE) != null) {
      return;
    }
    if (node instanceof Collection<?> items) {
      items.forEach(this::visit);
    } else if (node instanceof Map<?, ?> map) {
      map.forEach((k, v) -> {
        visit(k);
        visit(v);
      });
    } else if (node.getClass().isArray()) {
      for (int i = 0; i < Array.getLength(node); i++) {
        visit(Array.get(node, i));
      }
    }
    if (!inJsqlparser(node.getClass()) || node.getClass().getPackageName().startsWith("net.sf.jsqlparser.parser")) {
      return;
    }
    record(node);
    for (Field f : FIELDS.get(node.getClass())) {
      try {
        visit(f.get(node));
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + f, e);
      }
    }
  }

  private void record(Object node) {
    if (node instanceof Table t) {
      tables.add(t);
    } else if (node instanceof TableFunction) {
      return; // a function in FROM: the function it wraps is recorded on its own
    } else if (node instanceof Function f) {
      functions.add(f.getName() != null ? f.getName() : unnamed(f));
    } else if (node instanceof AnalyticExpression a) {
      functions.add(a.getName() == null ? "" : a.getName());
    } else if (node instanceof Select s) {
      selects.add(s);
    } else if (node instanceof WithItem<?> w) {
      withItems.add(w);
    } else if (node instanceof StringValue v) {
      strings.add(v.getValue());
    } else if (node instanceof JdbcParameter || node instanceof JdbcNamedParameter) {
      forbidden.add("a bind parameter (" + node + ")");
    } else if (node instanceof NextValExpression) {
      forbidden.add("a sequence change (" + node + ")");
    } else if (node instanceof UserVariable) {
      forbidden.add("a session variable (" + node + ")");
    }
  }

  /** A call jsqlparser keeps without a name (XMLTABLE, …): named by its text up to the parenthesis. */
  private static String unnamed(Object call) {
    String text = String.valueOf(call);
    int paren = text.indexOf('(');
    return (paren > 0 ? text.substring(0, paren) : text).strip();
  }

  private static boolean inJsqlparser(Class<?> k) {
    return k.getName().startsWith("net.sf.jsqlparser.");
  }
}
