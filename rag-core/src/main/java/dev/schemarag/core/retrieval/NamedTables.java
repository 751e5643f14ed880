package dev.schemarag.core.retrieval;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.SchemaAnalyzer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;

/**
 * Which tables a question names: by the table's own name (singular or plural, as stems), by a
 * gloss its comment or doc gives in parentheses ("Open positions (vacancies)"), by a short comment
 * that is a name in itself, or by a column name that only this table has. Stems are compared as
 * phrases, so "leave requests" names {@code hr.leave_requests} but "leave" alone does not.
 */
final class NamedTables {

  private static final Pattern PARENTHESES = Pattern.compile("\\(([^()]{2,80})\\)");
  private static final Pattern GLOSS_SEPARATOR = Pattern.compile(",|;|/|\\bor\\b|\\be\\.g\\.|\\bi\\.e\\.");
  /** A comment this short (in stems) reads as another name of the table. */
  private static final int NAME_LIKE_COMMENT = 3;

  /** What names each table: its phrases, its two-word columns (naming it while no other table has them), its roles. */
  private final PMap<String, Names> byTable;
  /** Per normalized column name, how many tables have it. */
  private final Map<String, Integer> columnTables;
  private final SchemaModel model;

  private record Role(List<String> phrase, String target) {}

  /** A column name as stems, and its normalized form (the key of the column statistics). */
  private record ColumnPhrase(String normalized, List<String> stems) {}

  /**
   * @param withNames whether the table has a column that holds a name
   * @param glossed the tables it points at that its own comment or doc names ("Employees who answer
   *     support tickets": an agent is an employee, and that is where its name is)
   */
  private record Names(List<List<String>> phrases, List<ColumnPhrase> columns, List<Role> roles, boolean withNames, Set<String> glossed) {}

  /** Words that ask for a person, a name, or a grouping: the answer shows a name from a lookup table. */
  private static final Set<String> NAME_CUES = Set.of("who", "whom", "whose", "which", "name", "names", "per", "each", "by");

  /**
   * @param glossText per table, the text its comment and doc give (the overview chunk's text)
   * @param columnTables per normalized column name, how many tables have it
   */
  NamedTables(SchemaModel model, Map<String, String> glossText, Map<String, Integer> columnTables) {
    this.model = model;
    this.columnTables = columnTables;
    Map<String, Names> byTable = new HashMap<>();
    for (Table t : model.tables()) {
      byTable.put(t.name(), names(model, t, glossText.get(t.name())));
    }
    this.byTable = HashTreePMap.from(byTable);
  }

  private NamedTables(PMap<String, Names> byTable, SchemaModel model, Map<String, Integer> columnTables) {
    this.model = model;
    this.byTable = byTable;
    this.columnTables = columnTables;
  }

  /**
   * The same for a model where only {@code changed} tables differ (and the column statistics with
   * them): their names are read again, the others' are kept.
   *
   * @param glossText the gloss text of the changed tables that have one
   */
  NamedTables withTables(SchemaModel next, Set<String> changed, Map<String, String> glossText, Map<String, Integer> nextColumnTables) {
    PMap<String, Names> copy = byTable;
    for (String name : changed) {
      Optional<Table> t = next.table(name);
      copy = t.isPresent() ? copy.plus(name, names(next, t.get(), glossText.get(name))) : copy.minus(name);
    }
    return new NamedTables(copy, next, nextColumnTables);
  }

  /** @param gloss the table's overview text, or null */
  private static Names names(SchemaModel model, Table t, String gloss) {
    boolean withNames = t.columns().stream().anyMatch(c -> Identifiers.words(c.name()).contains("name"));
    List<Role> r = new ArrayList<>();
    for (var fk : model.outgoing(t.name())) {
      if (fk.fromColumns().size() == 1 && !fk.toTable().equals(t.name())) {
        List<String> words = new ArrayList<>(Identifiers.words(fk.fromColumns().get(0)));
        words.removeIf(w -> w.equals("id"));
        List<String> stems = SchemaAnalyzer.stems(String.join(" ", words));
        if (!stems.isEmpty()) {
          r.add(new Role(stems, fk.toTable()));
        }
      }
    }
    Set<List<String>> p = new LinkedHashSet<>();
    add(p, Chunker.localWords(t.name(), t.module()));
    add(p, Identifiers.readable(t.name()));
    t.comment().filter(c -> SchemaAnalyzer.stems(c).size() <= NAME_LIKE_COMMENT).ifPresent(c -> add(p, c));
    String text = gloss != null ? gloss : t.comment().orElse("");
    Matcher m = PARENTHESES.matcher(text);
    while (m.find()) {
      for (String g : GLOSS_SEPARATOR.split(m.group(1))) {
        if (SchemaAnalyzer.stems(g).size() <= NAME_LIKE_COMMENT) {
          add(p, g);
        }
      }
    }
    // A two-word column name no other table has ("hire date") points at its table; a single
    // word ("amount", "salary") is too often a measure the question asks of another table. Whether
    // another table has it is asked when a question comes, so that a change elsewhere needs no rework here.
    List<ColumnPhrase> columns = new ArrayList<>();
    for (Column c : t.columns()) {
      List<String> stems = SchemaAnalyzer.stems(Identifiers.readable(c.name()));
      if (stems.size() >= 2) {
        columns.add(new ColumnPhrase(SchemaIndex.normalizedColumn(c.name()), stems));
      }
    }
    Set<String> glossed = new LinkedHashSet<>();
    // The overview text ends with the column names, whose FK columns name every target ("employee id"): the gloss is before them.
    int columnsAt = text.indexOf(Chunker.OVERVIEW_COLUMNS);
    List<String> glossStems = SchemaAnalyzer.stems(columnsAt < 0 ? text : text.substring(0, columnsAt));
    for (var fk : model.outgoing(t.name())) {
      Optional<Table> target = model.table(fk.toTable());
      if (!fk.toTable().equals(t.name()) && target.isPresent() && ownNames(target.get()).stream().anyMatch(n -> containsPhrase(glossStems, n))) {
        glossed.add(fk.toTable());
      }
    }
    return new Names(List.copyOf(p), List.copyOf(columns), List.copyOf(r), withNames, Set.copyOf(glossed));
  }

  /** A table's names by its identifier alone (what another table's gloss would call it). */
  private static Set<List<String>> ownNames(Table t) {
    Set<List<String>> p = new LinkedHashSet<>();
    add(p, Chunker.localWords(t.name(), t.module()));
    add(p, Identifiers.readable(t.name()));
    return p;
  }

  private static void add(Set<List<String>> phrases, String text) {
    List<String> stems = SchemaAnalyzer.stems(text);
    if (!stems.isEmpty() && !(stems.size() == 1 && stems.get(0).length() < 3)) {
      phrases.add(stems);
    }
  }

  /** The tables among {@code candidates} that the question (as stems) names. */
  Set<String> named(List<String> question, Iterable<String> candidates) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : candidates) {
      Names n = byTable.get(t);
      if (n != null && names(question, n)) {
        out.add(t);
      }
    }
    return out;
  }

  private boolean names(List<String> question, Names n) {
    for (List<String> phrase : n.phrases()) {
      if (containsPhrase(question, phrase)) {
        return true;
      }
    }
    for (ColumnPhrase c : n.columns()) {
      if (columnTables.getOrDefault(c.normalized(), 0) == 1 && containsPhrase(question, c.stems())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tables a packet table points at in a role the question names: "sales rep" names
   * {@code sales.orders.sales_rep_id}, so the employees it references join the packet.
   */
  Set<String> referencedByRole(List<String> question, Iterable<String> packet) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : packet) {
      Names n = byTable.get(t);
      for (Role r : n == null ? List.<Role>of() : n.roles()) {
        if (containsPhrase(question, r.phrase())) {
          out.add(r.target());
        }
      }
    }
    return out;
  }

  /**
   * For a question that asks who, for a name, or for figures per or by something: the lookup tables
   * that give names to the rows of the given tables that have no name of their own (an agent is an
   * employee, an order has a rep), at most one per table: the name-bearing table it points at that
   * the packet does not hold yet, one its own gloss names first, then the most relevant.
   */
  Set<String> nameLookups(String question, Iterable<String> tables, Set<String> packet, Map<String, Double> relevance) {
    Set<String> out = new LinkedHashSet<>();
    if (java.util.Arrays.stream(question.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}]+")).noneMatch(NAME_CUES::contains)) {
      return out;
    }
    for (String t : tables) {
      if (withNames(t)) {
        continue;
      }
      Set<String> glossed = byTable.get(t) == null ? Set.of() : byTable.get(t).glossed();
      model.outgoing(t).stream().map(fk -> fk.toTable()).filter(n -> withNames(n) && !packet.contains(n)).distinct()
          .max(java.util.Comparator.comparing((String n) -> glossed.contains(n)).thenComparingDouble(n -> relevance.getOrDefault(n, 0.0)))
          .ifPresent(out::add);
    }
    return out;
  }

  private boolean withNames(String table) {
    Names n = byTable.get(table);
    return n != null && n.withNames();
  }

  /** Whether {@code phrase} occurs in {@code text} as consecutive stems. */
  static boolean containsPhrase(List<String> text, List<String> phrase) {
    outer:
    for (int i = 0; i + phrase.size() <= text.size(); i++) {
      for (int j = 0; j < phrase.size(); j++) {
        if (!text.get(i + j).equals(phrase.get(j))) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
