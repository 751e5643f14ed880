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
 *
 * <p>Apart from these names, a value sampled from a table's data that no other table holds names the
 * table by its data ({@link #namedByValue}): "the Gym Pass" is a benefit plan, "Karla" an employee.
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
  /** Per sampled value (as stems), how many tables hold it: a value names its table only when no other holds it. */
  private final PMap<List<String>, Integer> valueTables;

  /**
   * A foreign key column read as a role: its words as stems ("sales rep"), the table it points at, and whether it
   * says who did something ({@code approved_by}).
   */
  private record Role(List<String> phrase, String target, boolean agent) {}

  /** A column name as stems, and its normalized form (the key of the column statistics). */
  private record ColumnPhrase(String normalized, List<String> stems) {}

  /**
   * @param withNames whether the table has a column that holds a name ({@link #holdsAName})
   * @param glossed the tables it points at that its own comment or doc names ("Employees who answer
   *     support tickets": an agent is an employee, and that is where its name is)
   * @param values the values sampled from its data, as stems, each once
   * @param plainColumnEnds the last stem of each column that points nowhere ("contact channel": channel), what a
   *     grouping by the table's own column says
   * @param valueAcronyms per initials (lower case), the sampled values of two to {@value Acronyms#MAX_LETTERS} words that have
   *     them, in lower case ("ceo": "chief executive officer")
   */
  private record Names(List<List<String>> phrases, List<ColumnPhrase> columns, List<Role> roles, boolean withNames, Set<String> glossed,
                       Set<List<String>> values, Set<String> plainColumnEnds, Map<String, Set<String>> valueAcronyms, Set<String> kinds,
                       Set<String> nameWords) {}

  /** Where the head of a table's comment ends: "Office sites | where employees work", "Deals | in the sales pipeline". */
  private static final Pattern HEAD_END = Pattern.compile(
      "[,;:.(]|\\b(?:where|who|whom|whose|which|that|with|of|for|in|by|from|to|on|at|and|or|we|per)\\b", Pattern.CASE_INSENSITIVE);

  /** Words that ask for a person, a name, or a grouping: the answer shows a name from a lookup table. */
  private static final Set<String> NAME_CUES = Set.of("who", "whom", "whose", "which", "name", "names", "per", "each", "by");
  /** The cues that ask for a person outright; "name" asks for the names of what the question names, the others for a grouping. */
  private static final Set<String> PERSON_CUES = Set.of("who", "whom", "whose");
  private static final Set<String> NAME_WORDS = Set.of("name", "names");
  /** The cue that asks for a place, which a table of places names. */
  private static final String PLACE_CUE = "where";
  /** Words after a grouping cue read as its object (as stems: "per stage of the pipeline" groups by stage). */
  private static final int GROUPING_OBJECT_WORDS = 2;
  /** Groupings by time, which a date column answers ("per month"), as stems. */
  private static final Set<String> TIME_UNITS = Set.copyOf(SchemaAnalyzer.stems("hour day weekday week month quarter year date"));

  /**
   * @param glossText per table, the text its comment and doc give (the overview chunk's text)
   * @param columnTables per normalized column name, how many tables have it
   * @param values per table, the values sampled from its data (none for a table missing)
   */
  NamedTables(SchemaModel model, Map<String, String> glossText, Map<String, Integer> columnTables, Map<String, List<String>> values) {
    this.model = model;
    this.columnTables = columnTables;
    Map<String, Names> byTable = new HashMap<>();
    Map<List<String>, Integer> valueTables = new HashMap<>();
    for (Table t : model.tables()) {
      Names n = names(model, t, glossText.get(t.name()), values.getOrDefault(t.name(), List.of()));
      byTable.put(t.name(), n);
      n.values().forEach(v -> valueTables.merge(v, 1, Integer::sum));
    }
    this.byTable = HashTreePMap.from(byTable);
    this.valueTables = HashTreePMap.from(valueTables);
  }

  private NamedTables(PMap<String, Names> byTable, SchemaModel model, Map<String, Integer> columnTables, PMap<List<String>, Integer> valueTables) {
    this.model = model;
    this.byTable = byTable;
    this.columnTables = columnTables;
    this.valueTables = valueTables;
  }

  /**
   * The same for a model where only {@code changed} tables differ (and the column statistics with
   * them): their names are read again, the others' are kept.
   *
   * @param glossText the gloss text of the changed tables that have one
   * @param values the sampled values of the changed tables that have some
   */
  NamedTables withTables(SchemaModel next, Set<String> changed, Map<String, String> glossText, Map<String, Integer> nextColumnTables,
                         Map<String, List<String>> values) {
    PMap<String, Names> copy = byTable;
    PMap<List<String>, Integer> counts = valueTables;
    for (String name : changed) {
      Names before = byTable.get(name);
      for (List<String> v : before == null ? Set.<List<String>>of() : before.values()) {
        int n = counts.getOrDefault(v, 0) - 1;
        counts = n <= 0 ? counts.minus(v) : counts.plus(v, n);
      }
      Optional<Table> t = next.table(name);
      if (t.isPresent()) {
        Names now = names(next, t.get(), glossText.get(name), values.getOrDefault(name, List.of()));
        copy = copy.plus(name, now);
        for (List<String> v : now.values()) {
          counts = counts.plus(v, counts.getOrDefault(v, 0) + 1);
        }
      } else {
        copy = copy.minus(name);
      }
    }
    return new NamedTables(copy, next, nextColumnTables, counts);
  }

  /**
   * @param gloss the table's overview text, or null
   * @param sampled the values sampled from its data
   */
  private static Names names(SchemaModel model, Table t, String gloss, List<String> sampled) {
    Set<String> pointing = new java.util.HashSet<>();
    model.outgoing(t.name()).forEach(fk -> pointing.addAll(fk.fromColumns()));
    boolean withNames = t.columns().stream().anyMatch(c -> holdsAName(c.name(), pointing.contains(c.name())));
    List<Role> r = new ArrayList<>();
    for (var fk : model.outgoing(t.name())) {
      if (fk.fromColumns().size() == 1 && !fk.toTable().equals(t.name())) {
        List<String> words = new ArrayList<>(Identifiers.words(fk.fromColumns().get(0)));
        words.removeIf(w -> w.equals("id"));
        List<String> stems = SchemaAnalyzer.stems(String.join(" ", words));
        if (!stems.isEmpty()) {
          r.add(new Role(stems, fk.toTable(), words.get(words.size() - 1).equals("by")));
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
    Set<String> plainColumnEnds = new java.util.HashSet<>();
    for (Column c : t.columns()) {
      List<String> stems = SchemaAnalyzer.stems(Identifiers.readable(c.name()));
      if (stems.size() >= 2) {
        columns.add(new ColumnPhrase(SchemaIndex.normalizedColumn(c.name()), stems));
      }
      if (!stems.isEmpty() && !pointing.contains(c.name())) {
        plainColumnEnds.add(stems.get(stems.size() - 1));
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
    Set<List<String>> values = new LinkedHashSet<>();
    sampled.forEach(v -> add(values, v));
    Map<String, Set<String>> acronyms = new HashMap<>();
    for (String v : sampled) {
      // Read as the schema's names are (Acronyms): words of a value with a number in it have no initials a capital says.
      List<String> words = Identifiers.words(v);
      if (words.size() >= 2 && words.size() <= Acronyms.MAX_LETTERS) {
        acronyms.computeIfAbsent(Acronyms.initials(words), k -> new LinkedHashSet<>()).add(String.join(" ", words));
      }
    }
    acronyms.replaceAll((initials, readings) -> Set.copyOf(readings));
    Set<String> nameWords = Set.copyOf(SchemaAnalyzer.stems(Chunker.localWords(t.name(), t.module())));
    Set<String> kinds = new java.util.HashSet<>(nameWords);
    t.comment().ifPresent(c -> {
      Matcher end = HEAD_END.matcher(c);
      List<String> head = SchemaAnalyzer.stems(end.find() ? c.substring(0, end.start()) : c);
      if (head.size() <= NAME_LIKE_COMMENT) {
        kinds.addAll(head);
      }
    });
    return new Names(List.copyOf(p), List.copyOf(columns), List.copyOf(r), withNames, Set.copyOf(glossed), Set.copyOf(values),
        Set.copyOf(plainColumnEnds), Map.copyOf(acronyms), Set.copyOf(kinds), nameWords);
  }

  /**
   * The sampled values of every table whose words have these initials (lower case): "CEO" in a question is the job
   * title "Chief Executive Officer" of the data, as "PO" is the {@code purchase_orders} of the schema's names.
   */
  Set<String> valueReadings(String letters) {
    Set<String> out = new java.util.TreeSet<>();
    for (Names n : byTable.values()) {
      Set<String> read = n.valueAcronyms().get(letters);
      if (read != null) {
        out.addAll(read);
      }
    }
    return out;
  }

  /** The initials of a table's sampled values of several words: the acronyms whose readings a change to its data can alter. */
  Set<String> valueAcronymsOf(String table) {
    Names n = byTable.get(table);
    return n == null ? Set.of() : n.valueAcronyms().keySet();
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

  /** Whether a word (as a stem) is a word of the own name of a table among {@code candidates} ("invoic": the customer invoices). */
  boolean inAName(String stem, Iterable<String> candidates) {
    for (String t : candidates) {
      Names n = byTable.get(t);
      if (n != null && n.nameWords().contains(stem)) {
        return true;
      }
    }
    return false;
  }

  /** The tables among {@code candidates} that the question (as stems) names. */
  Set<String> named(List<String> question, Iterable<String> candidates) {
    Set<String> out = new LinkedHashSet<>();
    // A phrase whose first word the question does not say is passed over at once, as in namedByValue.
    Set<String> said = new java.util.HashSet<>(question);
    for (String t : candidates) {
      Names n = byTable.get(t);
      if (n != null && names(question, said, n)) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * The tables among {@code candidates} that the question names by a value of their data: a value no
   * other table's data holds, which no other table says in its names, comments, docs or values ("who
   * signed up for the Gym Pass": the plan of that name; "Karla": an employee; "warehouse operators": a
   * job title, though "warehouse" alone is said by many tables). A value that other tables say too
   * ("email" as a channel, "pending" as a status that another table documents) says what the question
   * is about, not which table holds it. Of two values matched at one place, the longer names: "Berlin
   * Central" is a warehouse, and the city "Berlin" inside it names no table.
   *
   * @param heldElsewhere whether a value (as stems) is said by a table other than the given one
   */
  Set<String> namedByValue(List<String> question, Iterable<String> candidates, java.util.function.BiPredicate<List<String>, String> heldElsewhere) {
    return namedByValue(question, candidates, heldElsewhere, 1);
  }

  /**
   * The same, by values of at least {@code minWords} words (as stems) only, where values of one table
   * said one after the other count as one: "Hugo Wagner" is a first name and a last name of the employees. A value
   * followed by a word of its table's kind ({@link #groupedBy}: the head of its comment, or its name) counts with that
   * word, and names the table even where another table says the value alone: "the Austin site" is an office ("Office
   * sites where employees work"), though a warehouse is called "Austin West".
   */
  Set<String> namedByValue(List<String> question, Iterable<String> candidates, java.util.function.BiPredicate<List<String>, String> heldElsewhere,
                           int minWords) {
    if (valueTables.isEmpty()) {
      return Set.of();
    }
    record Match(String table, int start, int end) {
      boolean within(Match o) {
        return o.start <= start && end <= o.end && o.end - o.start > end - start;
      }
    }
    List<Match> matches = new ArrayList<>();
    // A value whose first word the question does not say is passed over at once: a large schema has many.
    Set<String> said = new java.util.HashSet<>(question);
    for (String t : candidates) {
      Names n = byTable.get(t);
      for (List<String> v : n == null ? Set.<List<String>>of() : n.values()) {
        if (!said.contains(v.get(0))) {
          continue;
        }
        int at = phraseFrom(question, v, 0);
        if (at < 0) {
          continue;
        }
        // Alone, a value names its table only when no other table's data holds it and no other table says it.
        Boolean alone = valueTables.getOrDefault(v, 0) == 1 ? null : false;
        for (; at >= 0; at = phraseFrom(question, v, at + 1)) {
          int end = at + v.size();
          // A value said with its table's kind ("the Austin site", "Hooli companies") names that table even where
          // another table holds or says the value ("Austin West" is a warehouse): the kind tells which.
          if (end < question.size() && n.kinds().contains(question.get(end))) {
            List<String> withKind = new ArrayList<>(v);
            withKind.add(question.get(end));
            if (!heldElsewhere.test(withKind, t)) {
              matches.add(new Match(t, at, end + 1));
              continue;
            }
          }
          if (alone == null) {
            alone = !heldElsewhere.test(v, t);
          }
          if (alone) {
            matches.add(new Match(t, at, end));
          }
        }
      }
    }
    // Per table, the longest run of its values said one after the other.
    Map<String, Integer> longest = new HashMap<>();
    Map<String, int[]> run = new HashMap<>();
    matches.stream().filter(m -> matches.stream().noneMatch(m::within)).sorted(java.util.Comparator.comparingInt(Match::start))
        .forEach(m -> {
          int[] r = run.get(m.table());
          if (r != null && r[1] == m.start()) {
            r[1] = m.end();
          } else {
            r = new int[] {m.start(), m.end()};
            run.put(m.table(), r);
          }
          longest.merge(m.table(), r[1] - r[0], Math::max);
        });
    Set<String> out = new LinkedHashSet<>();
    matches.stream().map(Match::table).distinct().filter(t -> longest.getOrDefault(t, 0) >= minWords).forEach(out::add);
    return out;
  }

  private boolean names(List<String> question, Set<String> said, Names n) {
    for (List<String> phrase : n.phrases()) {
      if (said.contains(phrase.get(0)) && containsPhrase(question, phrase)) {
        return true;
      }
    }
    for (ColumnPhrase c : n.columns()) {
      if (said.contains(c.stems().get(0)) && columnTables.getOrDefault(c.normalized(), 0) == 1 && containsPhrase(question, c.stems())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Tables a packet table points at in a role the question names: "sales rep" names
   * {@code sales.orders.sales_rep_id}, so the employees it references join the packet. A role that
   * says who did something ({@code approved_by}, {@code received_by}: its last word is "by") counts only
   * for a question that asks who ({@link #asksForPerson}): "goods received per warehouse" and "journal
   * postings" say the verb and ask for the goods and the postings, not for who received or posted them.
   *
   * @param question the question's stems
   * @param asksForPerson whether the question asks who
   */
  Set<String> referencedByRole(List<String> question, Iterable<String> packet, boolean asksForPerson) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : packet) {
      Names n = byTable.get(t);
      for (Role r : n == null ? List.<Role>of() : n.roles()) {
        if ((asksForPerson || !r.agent()) && containsPhrase(question, r.phrase())) {
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
   * the packet does not hold yet, one its own gloss names first, then, for a question that asks who, the
   * one most tables point at (a who is one of the schema's actors, a customer rather than a service
   * level), then the most relevant. A question
   * that does not ask who gets none for a table whose names nothing it asks needs: its groupings are
   * by time, by the table's own columns or by named tables with names ({@link #answeredWithoutLookup}),
   * and the names it asks for are another table's ({@link #namesAnotherTable}). A question that asks where (not a
   * relative "where") also gets the first table's place: the most relevant name-bearing table it points at that the
   * packet does not hold ("which warehouses do we run, where": their sites). Only the first table's, the ranking's
   * leading one: every other table's would be as much a place.
   *
   * @param tables the packet's leading tables, the ranking's first one first
   * @param stems the question's stems ({@link SchemaAnalyzer#stems}), which the retriever has read already
   */
  Set<String> nameLookups(String question, List<String> stems, Iterable<String> tables, Set<String> packet, Map<String, Double> relevance) {
    Set<String> out = new LinkedHashSet<>();
    List<String> words = withoutRelativePronouns(question);
    boolean asksWhere = words.contains(PLACE_CUE);
    if (!asksWhere && words.stream().noneMatch(NAME_CUES::contains)) {
      return out;
    }
    boolean asksForPerson = words.stream().anyMatch(PERSON_CUES::contains);
    boolean asksForNames = words.stream().anyMatch(NAME_WORDS::contains);
    List<List<String>> groupings = groupingObjects(words);
    Set<String> said = new java.util.HashSet<>(stems);
    boolean leading = true;
    for (String t : tables) {
      if (asksWhere && leading) {
        // A place is a row of its own with a name: the leading table's place is the target not in the packet yet.
        namedTargetsOutside(t, packet).max(java.util.Comparator.comparingDouble(n -> relevance.getOrDefault(n, 0.0))).ifPresent(out::add);
      }
      leading = false;
      if (withNames(t) || (!asksForPerson && (!asksForNames || namesAnotherTable(stems, said, t, packet))
          && groupings.stream().allMatch(g -> answeredWithoutLookup(g, t, packet)))) {
        continue;
      }
      Set<String> glossed = byTable.get(t) == null ? Set.of() : byTable.get(t).glossed();
      namedTargetsOutside(t, packet).max(java.util.Comparator.comparing((String n) -> glossed.contains(n))
              .thenComparingInt(n -> asksForPerson ? model.incoming(n).size() : 0)
              .thenComparingDouble(n -> relevance.getOrDefault(n, 0.0)))
          .ifPresent(out::add);
    }
    return out;
  }

  /**
   * Tables that a grouping of the question names by the kind of rows they hold, among those the packet's tables point
   * at and the packet does not hold: "office by office" groups the employees by the table they point at whose comment is
   * "Office sites where employees work" (the head of a comment, before "where", "of", "in", …, says what a row is; so
   * does the table's own name). Only a table with names of its own: a grouping shows the names of its groups. A
   * grouping that a packet table answers (by a column of its own, or by being of that kind itself) or by time brings
   * none; of several tables of that kind, the most relevant. Any packet table's target counts, not only the leading
   * tables': "which vendors sent us the most bills" groups the vendors' bills, whatever table leads.
   */
  Set<String> groupedBy(String question, Set<String> packet, Map<String, Double> relevance) {
    Set<String> out = new LinkedHashSet<>();
    for (List<String> g : groupingObjects(withoutRelativePronouns(question))) {
      if (g.isEmpty() || TIME_UNITS.contains(g.get(0)) || answeredInPacket(g.get(0), packet)) {
        continue;
      }
      java.util.stream.Stream.Builder<String> kind = java.util.stream.Stream.builder();
      for (String t : packet) {
        model.outgoing(t).stream().map(fk -> fk.toTable()).filter(n -> !packet.contains(n) && !out.contains(n))
            .filter(n -> withNames(n) && byTable.get(n).kinds().contains(g.get(0))).forEach(kind::add);
      }
      kind.build().distinct().max(java.util.Comparator.comparingDouble(n -> relevance.getOrDefault(n, 0.0))).ifPresent(out::add);
    }
    return out;
  }

  /** Whether a packet table answers a grouping by this word: a column of its own ends with it, or its rows are of that kind. */
  private boolean answeredInPacket(String word, Set<String> packet) {
    for (String t : packet) {
      Names n = byTable.get(t);
      if (n != null && (n.plainColumnEnds().contains(word) || n.kinds().contains(word))) {
        return true;
      }
    }
    return false;
  }

  /** The tables with names of their own that {@code table} points at and the packet does not hold: its lookups and places. */
  private java.util.stream.Stream<String> namedTargetsOutside(String table, Set<String> packet) {
    return model.outgoing(table).stream().map(fk -> fk.toTable()).filter(n -> withNames(n) && !packet.contains(n)).distinct();
  }

  /** Whether the question asks who (not a relative "who"). */
  static boolean asksForPerson(String question) {
    return withoutRelativePronouns(question).stream().anyMatch(PERSON_CUES::contains);
  }

  private static final Pattern WORD_OR_MARK = Pattern.compile("\\p{L}+|[,;:?!.()\"“”]");
  /** Pronouns that ask a question at the head of a clause and join a relative clause to the noun before them. */
  private static final Set<String> RELATIVE_OR_ASKING = Set.of("who", "whom", "whose", "which", "where");
  /**
   * Words after which such a pronoun asks ("and who manages them", "show me which", "from which depot"); after any other
   * word it is relative.
   */
  private static final Set<String> ASKING_AFTER = Set.of("and", "or", "but", "me", "us", "show", "list", "tell", "know", "find", "see",
      "give", "from", "in", "to", "by", "for", "at", "on", "with", "of", "about", "into", "under");

  /**
   * The question's words (lower case, letters only) without the pronouns that join a relative clause to the noun before
   * them: "the dogs who have had a treatment" asks for the dogs, not for a person's name, while "who treated them" and
   * "and which agent handled it" ask.
   */
  static List<String> withoutRelativePronouns(String question) {
    List<String> out = new ArrayList<>();
    String before = null;
    Matcher m = WORD_OR_MARK.matcher(question.toLowerCase(java.util.Locale.ROOT));
    while (m.find()) {
      String w = m.group();
      boolean mark = !Character.isLetter(w.charAt(0));
      if (!mark && !(RELATIVE_OR_ASKING.contains(w) && before != null && Character.isLetter(before.charAt(0))
          && !ASKING_AFTER.contains(before))) {
        out.add(w);
      }
      before = w;
    }
    return out;
  }

  /** What each grouping cue of the question groups by: the first stems of the words after it (empty: it says nothing after). */
  private static List<List<String>> groupingObjects(List<String> words) {
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      if (!NAME_CUES.contains(words.get(i)) || PERSON_CUES.contains(words.get(i)) || NAME_WORDS.contains(words.get(i))) {
        continue;
      }
      List<String> after = new ArrayList<>();
      for (int j = i + 1; j < words.size() && after.size() < GROUPING_OBJECT_WORDS + 1; j++) {
        if (!NAME_CUES.contains(words.get(j))) {
          after.add(words.get(j));
        }
      }
      List<String> stems = SchemaAnalyzer.stems(String.join(" ", after));
      out.add(stems.subList(0, Math.min(GROUPING_OBJECT_WORDS, stems.size())));
    }
    return out;
  }

  /**
   * Whether a grouping is answered without the lookup of {@code table}'s names: it is by time, by a column of the
   * table that points nowhere (its last word: "contact channel" is the channel), by such a column of another packet
   * table that the grouping's first word is ("each type of pet" is the pets' {@code pet_type}; a later word is too
   * often another column's, "reps close" an {@code expected_close}), or by a packet table with names of its own that
   * the grouping names.
   */
  private boolean answeredWithoutLookup(List<String> grouping, String table, Set<String> packet) {
    if (grouping.isEmpty()) {
      return false;
    }
    if (TIME_UNITS.contains(grouping.get(0))) {
      return true;
    }
    for (String other : packet) {
      Names n = byTable.get(other);
      if (n != null && n.plainColumnEnds().contains(grouping.get(0))) {
        return true;
      }
    }
    Names own = byTable.get(table);
    if (own != null && grouping.stream().anyMatch(own.plainColumnEnds()::contains)) {
      return true;
    }
    return namesOtherWithNames(grouping, new java.util.HashSet<>(grouping), table, packet);
  }

  /**
   * Whether the names a question asks for are those of another packet table with names of its own, which it names
   * ("the names of the stadiums"), while it does not name {@code table} ("the agent's name" is an agent's).
   */
  private boolean namesAnotherTable(List<String> stems, Set<String> said, String table, Set<String> packet) {
    Names own = byTable.get(table);
    return (own == null || !names(stems, said, own)) && namesOtherWithNames(stems, said, table, packet);
  }

  /** Whether the words (as stems) name a packet table other than {@code table} that has names of its own. */
  private boolean namesOtherWithNames(List<String> stems, Set<String> said, String table, Set<String> packet) {
    for (String other : packet) {
      Names n = byTable.get(other);
      if (!other.equals(table) && n != null && n.withNames() && names(stems, said, n)) {
        return true;
      }
    }
    return false;
  }

  private boolean withNames(String table) {
    Names n = byTable.get(table);
    return n != null && n.withNames();
  }

  /**
   * Whether a column holds what its table's rows are called: a word "name" ("first_name"), or a title of the row's own
   * ("title", "job_title"; an article is shown by its title as a customer by its name), not a key to another table's
   * ({@code job_title_id}).
   */
  static boolean holdsAName(String column, boolean pointsElsewhere) {
    List<String> words = Identifiers.words(column);
    return words.contains("name") || (!pointsElsewhere && !words.isEmpty() && words.get(words.size() - 1).equals("title"));
  }

  /** Where {@code phrase} first occurs in {@code text} as consecutive stems from {@code from} on; -1 when it does not. */
  static int phraseFrom(List<String> text, List<String> phrase, int from) {
    outer:
    for (int i = from; i + phrase.size() <= text.size(); i++) {
      for (int j = 0; j < phrase.size(); j++) {
        if (!text.get(i + j).equals(phrase.get(j))) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** Whether {@code phrase} occurs in {@code text} as consecutive stems. */
  static boolean containsPhrase(List<String> text, List<String> phrase) {
    return phraseFrom(text, phrase, 0) >= 0;
  }

}
