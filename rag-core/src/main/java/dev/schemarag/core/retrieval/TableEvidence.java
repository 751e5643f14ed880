package dev.schemarag.core.retrieval;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything retrieval found for one table: its own chunk's dense and lexical scores, and the
 * evidence of its columns with how specific each column name is.
 */
public final class TableEvidence {

  /**
   * One column's hit: its score, the specificity of its name (see {@link SchemaIndex#specificity}), and
   * whether its chunk carries values sampled from the data (a dense hit of such a column ranks its table in
   * full but counts for less at the {@link RelevanceGate}).
   */
  public record ColumnHit(String column, double score, double specificity, boolean sampled) {
    public ColumnHit(String column, double score, double specificity) {
      this(column, score, specificity, false);
    }
  }

  final String table;
  double denseTable = Double.NaN;
  double lexicalTable;
  final List<ColumnHit> denseColumns = new ArrayList<>();
  final List<ColumnHit> lexicalColumns = new ArrayList<>();
  double denseQuery = Double.NaN;
  /** The table's own evidence, before module evidence is added. */
  double tableScore;
  /** Its module ("" when the schema has none). */
  String module = "";
  double fused;

  TableEvidence(String table) {
    this.table = table;
  }

  public String table() {
    return table;
  }

  public double fused() {
    return fused;
  }

  public double denseTable() {
    return denseTable;
  }

  /** The best cosine of a query pattern documented for this table (NaN when none was returned). */
  public double denseQuery() {
    return denseQuery;
  }

  public double lexicalTable() {
    return lexicalTable;
  }

  public List<ColumnHit> denseColumns() {
    return List.copyOf(denseColumns);
  }

  public List<ColumnHit> lexicalColumns() {
    return List.copyOf(lexicalColumns);
  }

  /**
   * The ranking with the tables {@code moves} picks after the others, each group in its order; the
   * ranking itself when none moves. {@code moves} is asked once per table, in ranking order, so it may count.
   */
  static List<TableEvidence> movedToEnd(List<TableEvidence> ranked, java.util.function.Predicate<TableEvidence> moves) {
    List<TableEvidence> kept = new ArrayList<>(ranked.size());
    List<TableEvidence> moved = new ArrayList<>();
    for (TableEvidence e : ranked) {
      (moves.test(e) ? moved : kept).add(e);
    }
    if (moved.isEmpty()) {
      return ranked;
    }
    kept.addAll(moved);
    return kept;
  }

  /** Whether no search returned the table or any of its columns (a candidate only by its module). */
  boolean foundByNoSearch() {
    return Double.isNaN(denseTable) && lexicalTable == 0 && denseColumns.isEmpty() && lexicalColumns.isEmpty() && Double.isNaN(denseQuery);
  }

  /** Columns with evidence, best dense hit first. */
  List<String> matchedColumns() {
    List<String> out = new ArrayList<>();
    denseColumns.forEach(c -> out.add(c.column()));
    lexicalColumns.forEach(c -> out.add(c.column()));
    return out.stream().distinct().toList();
  }
}
