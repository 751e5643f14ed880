package dev.schemarag.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * One walk over a parsed statement, however deeply nested (sub-queries, set operations, CTEs,
 * expressions): the tables it reads (CTE names excluded), every function it calls, every plain
 * SELECT and every CTE body. Built on jsqlparser's own full-tree visitor.
 */
class StatementWalker extends TablesNamesFinder<Void> {

  final List<String> functions = new ArrayList<>();
  final List<PlainSelect> plainSelects = new ArrayList<>();
  final List<WithItem<?>> withItems = new ArrayList<>();
  List<String> tables = List.of();

  static StatementWalker walk(Statement statement) {
    StatementWalker w = new StatementWalker();
    w.tables = w.getTableList(statement);
    return w;
  }

  @Override
  public <S> Void visit(Function function, S context) {
    functions.add(function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT));
    return super.visit(function, context);
  }

  @Override
  public <S> Void visit(PlainSelect plainSelect, S context) {
    plainSelects.add(plainSelect);
    return super.visit(plainSelect, context);
  }

  @Override
  public <S> Void visit(WithItem<?> withItem, S context) {
    withItems.add(withItem);
    return super.visit(withItem, context);
  }
}
