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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  private final Map<String, List<List<String>>> phrases = new HashMap<>();
  /** Per table, its foreign keys' roles: the FK column's words without "id" and the table they point at. */
  private final Map<String, List<Role>> roles = new HashMap<>();
  /** Tables with a column that holds a name (first_name, company_name, name ...). */
  private final Set<String> withNames = new java.util.HashSet<>();
  private final SchemaModel model;

  private record Role(List<String> phrase, String target) {}

  /** Words that ask for a person, a name, or a grouping: the answer shows a name from a lookup table. */
  private static final Set<String> NAME_CUES = Set.of("who", "whom", "whose", "name", "names", "per", "each", "by");

  /**
   * @param glossText per table, the text its comment and doc give (the overview chunk's text)
   * @param columnTables per normalized column name, how many tables have it
   */
  NamedTables(SchemaModel model, Map<String, String> glossText, Map<String, Integer> columnTables) {
    this.model = model;
    for (Table t : model.tables()) {
      if (t.columns().stream().anyMatch(c -> Identifiers.words(c.name()).contains("name"))) {
        withNames.add(t.name());
      }
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
      roles.put(t.name(), r);
      Set<List<String>> p = new LinkedHashSet<>();
      add(p, Chunker.localWords(t.name(), t.module()));
      add(p, Identifiers.readable(t.name()));
      t.comment().filter(c -> SchemaAnalyzer.stems(c).size() <= NAME_LIKE_COMMENT).ifPresent(c -> add(p, c));
      String text = glossText.getOrDefault(t.name(), t.comment().orElse(""));
      Matcher m = PARENTHESES.matcher(text);
      while (m.find()) {
        for (String gloss : GLOSS_SEPARATOR.split(m.group(1))) {
          if (SchemaAnalyzer.stems(gloss).size() <= NAME_LIKE_COMMENT) {
            add(p, gloss);
          }
        }
      }
      for (Column c : t.columns()) {
        // A two-word column name no other table has ("hire date") points at its table; a single
        // word ("amount", "salary") is too often a measure the question asks of another table.
        if (columnTables.getOrDefault(SchemaIndex.normalizedColumn(c.name()), 0) == 1) {
          List<String> stems = SchemaAnalyzer.stems(Identifiers.readable(c.name()));
          if (stems.size() >= 2) {
            p.add(stems);
          }
        }
      }
      phrases.put(t.name(), new ArrayList<>(p));
    }
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
      for (List<String> phrase : phrases.getOrDefault(t, List.of())) {
        if (containsPhrase(question, phrase)) {
          out.add(t);
          break;
        }
      }
    }
    return out;
  }

  /**
   * Tables a packet table points at in a role the question names: "sales rep" names
   * {@code sales.orders.sales_rep_id}, so the employees it references join the packet.
   */
  Set<String> referencedByRole(List<String> question, Iterable<String> packet) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : packet) {
      for (Role r : roles.getOrDefault(t, List.of())) {
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
   * employee, an order has a rep), at most one per table: the most relevant name-bearing table it
   * points at that the packet does not hold yet.
   */
  Set<String> nameLookups(String question, Iterable<String> tables, Set<String> packet, Map<String, Double> relevance) {
    Set<String> out = new LinkedHashSet<>();
    if (java.util.Arrays.stream(question.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}]+")).noneMatch(NAME_CUES::contains)) {
      return out;
    }
    for (String t : tables) {
      if (withNames.contains(t)) {
        continue;
      }
      model.outgoing(t).stream().map(fk -> fk.toTable()).filter(n -> withNames.contains(n) && !packet.contains(n)).distinct()
          .max(java.util.Comparator.comparingDouble(n -> relevance.getOrDefault(n, 0.0)))
          .ifPresent(out::add);
    }
    return out;
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
