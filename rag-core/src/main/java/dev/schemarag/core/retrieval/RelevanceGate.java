package dev.schemarag.core.retrieval;

import dev.schemarag.core.search.SchemaAnalyzer;
import java.util.List;
import java.util.Optional;

/**
 * The absolute relevance gate: a question whose best evidence in the whole schema stays below
 * the gate is answered by no table, and gets an empty packet. The evidence is the best cosine
 * between the question and any table or column chunk, a column whose chunk carries values sampled
 * from the data counting {@link #SAMPLED_PENALTY} less: a city among a column's values ranks that
 * column for "customers in Munich", but is a weaker reason to answer "the weather in Paris" than
 * what the schema says of itself. A question that names a table, by a value of its data in two words
 * or more or as the packet's named tables are named, passes from {@link #VALUES_PENALTY} below the gate. It is absolute (not relative to the best hit, which always
 * passes) and depends on the embedding model, so each model has its own calibrated gate
 * ({@code ./schemarag calibrate}, figures in the README).
 */
public final class RelevanceGate {
  private RelevanceGate() {}

  /**
   * What the question's parts (without its values, or one clause of it) give up against the question
   * itself: taking values out also lifts off-topic questions ("the capital of Australia" reads "the
   * capital of"), and so does a short clause. Chosen with the gate on the calibration sets.
   */
  static final double VALUES_PENALTY = 0.06;

  /**
   * What a column's cosine gives up when its chunk carries values sampled from the data: its vector says
   * what the data holds as well as what the column is. Chosen with the gate on the ERP sets (in-scope,
   * off-topic, and questions that name values): excluding such columns refused in-scope questions that
   * only their values answer ("top 5 networking products"), counting them in full let "the weather in
   * Paris" through on a time zone column.
   */
  static final double SAMPLED_PENALTY = 0.03;

  /** A column's cosine as evidence of relevance. */
  static double evidence(double cosine, boolean sampled) {
    return sampled ? cosine - SAMPLED_PENALTY : cosine;
  }

  /** The best absolute evidence of one table: its own chunk's or its best column's cosine. */
  static double relevance(TableEvidence e) {
    double best = Double.isNaN(e.denseTable) ? 0 : e.denseTable;
    for (TableEvidence.ColumnHit c : e.denseColumns) {
      best = Math.max(best, evidence(c.score(), c.sampled()));
    }
    return best;
  }

  /** The question's relevance to the schema: the best table's, and which table that is. */
  static Optional<TableEvidence> closest(List<TableEvidence> ranked) {
    TableEvidence best = null;
    double bestRelevance = Double.NEGATIVE_INFINITY;
    for (TableEvidence e : ranked) {
      double r = relevance(e);
      if (r > bestRelevance) {
        best = e;
        bestRelevance = r;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Words a value of the data holds at least, for the question that says it to pass below the gate: one
   * word ("hello", "Munich") is as often said by a question about something else.
   */
  static final int NAMED_VALUE_WORDS = 2;

  /**
   * The question's relevance and, when a gate is set ({@code gate > 0}) and nothing reaches it, the
   * refusal. Only below the gate are the question's parts asked, each an embedding and a dense search more:
   * its clauses and the question without its values ({@link QuestionValues#parts}). The best of them counts
   * {@link #VALUES_PENALTY} less. A question that says a value of one table's
   * data in {@link #NAMED_VALUE_WORDS} words or more ("the Gym Pass", "the Porto hub", "software
   * engineers": {@link NamedTables#namedByValue}) passes from {@link #VALUES_PENALTY} below the gate: the
   * words its vector lacks are the data's, which no table's description says. So does a question that names a
   * table as {@link NamedTables#named} reads it (its name, singular or plural, a gloss, a name-like comment, a
   * two-word column name only it has: "docking station lots: which ones go out of date?" says the lots): a question
   * that says what a table is called is about that table, however little of the rest its vector shares.
   *
   * A question with no word to search for ({@link #wordless}: "What is 15% of 80?", "please") is refused
   * whatever its cosine: no table can answer what it does not say, and its vector is that of its framing.
   *
   * A question that reads as an instruction to the assistant ({@link AssistantInstructions}: "ignore your instructions",
   * "write a Python script") is refused whatever its cosine too: what it asks for is in no table, though it may borrow
   * the schema's words.
   *
   * A question of {@link #oneWord one word} ("start", "customers?") passes only when it names a table as {@link
   * NamedTables#named} reads it or is a word of a table's own name ("invoices"), whatever its cosine: a word such as
   * "start" is close to every table's start date, and says nothing of what to look for in them.
   *
   * @param wordless whether the question holds no word to search the schema for ({@link #wordless})
   * @param oneWord the question's one word, when it is one word ({@link #oneWord})
   * @param instruction the words by which the question reads as an instruction to the assistant, if it does
   * @param parts the best relevance of the question's parts (see {@link QuestionValues#parts})
   * @param namesATable whether the question names a table, by such a value or as {@link NamedTables#named} reads it (for a
   *     one-word question, also whether the word is in a table's own name); asked only below the gate or for one word
   */
  static Verdict judge(Optional<TableEvidence> closest, double gate, boolean wordless, Optional<String> oneWord,
                       Optional<String> instruction, java.util.function.DoubleSupplier parts,
                       java.util.function.BooleanSupplier namesATable) {
    double score = closest.map(RelevanceGate::relevance).orElse(0.0);
    Optional<String> table = closest.map(TableEvidence::table);
    if (gate > 0 && wordless) {
      return new Verdict(score, false, Optional.of(new SchemaContextPacket.Refusal(table, score, gate, SchemaContextPacket.Refusal.Reason.WORDLESS)));
    }
    if (gate > 0 && instruction.isPresent()) {
      return new Verdict(score, false, Optional.of(
          new SchemaContextPacket.Refusal(table, score, gate, SchemaContextPacket.Refusal.Reason.INSTRUCTION, instruction.get())));
    }
    if (gate > 0 && oneWord.isPresent()) {
      boolean named = namesATable.getAsBoolean();
      return new Verdict(score, named, named ? Optional.empty() : Optional.of(
          new SchemaContextPacket.Refusal(table, score, gate, SchemaContextPacket.Refusal.Reason.ONE_WORD, oneWord.get())));
    }
    if (gate <= 0 || score >= gate) {
      return new Verdict(score, false, Optional.empty());
    }
    score = Math.max(score, parts.getAsDouble() - VALUES_PENALTY);
    boolean named = score < gate && namesATable.getAsBoolean();
    return new Verdict(score, named, refuses(score, named, false, gate)
        ? Optional.of(new SchemaContextPacket.Refusal(table, score, gate, SchemaContextPacket.Refusal.Reason.BELOW_GATE)) : Optional.empty());
  }

  /**
   * A verdict that let the question through, unless the question is closer to the world's questions than to the
   * schema by more than {@code margin} ({@link WorldQuestions}): "Which pharmacies in Lyon are open on Sunday?"
   * reaches the gate on a table of offices in Lyon, yet sits much nearer "24 hour pharmacies in Madrid". A verdict
   * that already refuses, no gate, or no margin ({@code margin <= 0}) is returned as it is.
   */
  static Verdict world(Verdict verdict, Optional<String> closestTable, double gate, double margin, WorldQuestions.Closeness world) {
    if (verdict.refusal().isPresent() || gate <= 0 || margin <= 0 || !aboutTheWorld(world.score(), verdict.relevance(), margin)) {
      return verdict;
    }
    return new Verdict(verdict.relevance(), verdict.namesATable(), Optional.of(new SchemaContextPacket.Refusal(closestTable,
        verdict.relevance(), gate, SchemaContextPacket.Refusal.Reason.WORLD, world.nearest())));
  }

  /** Whether a question of this closeness to the world and relevance to the schema is about the world: the rule of {@link #world}. */
  public static boolean aboutTheWorld(double world, double relevance, double margin) {
    return margin > 0 && world - relevance > margin;
  }

  /**
   * Whether the question holds no word to search the schema for: of its searchable stems (stop words and the
   * words that frame a question, "what", "please", left out by {@code SchemaAnalyzer}), none is a word ({@link SchemaAnalyzer#isWord}).
   */
  static boolean wordless(List<String> stems) {
    return stems.stream().noneMatch(SchemaAnalyzer::isWord);
  }

  /** Scripts that put spaces between words: a question in one of them without a space is one word. */
  private static final java.util.regex.Pattern ONE_WORD = java.util.regex.Pattern.compile(
      "[\\p{IsLatin}\\p{IsCyrillic}\\p{IsGreek}\\p{Nd}_'-]*\\p{L}[\\p{IsLatin}\\p{IsCyrillic}\\p{IsGreek}\\p{Nd}_'-]*");

  /** The question's one word, when it is one word between punctuation ("start", "customers?"); empty otherwise. */
  static Optional<String> oneWord(String question) {
    String word = question.strip().replaceAll("^\\p{Punct}+|\\p{Punct}+$", "");
    return ONE_WORD.matcher(word).matches() ? Optional.of(word) : Optional.empty();
  }

  /**
   * Whether a question of this relevance is refused at this gate, given whether it names a table (by a
   * value of {@link #NAMED_VALUE_WORDS} words or more, or by its name) and whether it is refused whatever its relevance
   * ({@link #wordless}, an instruction to the assistant, or one word that names no table): the rule of {@link #judge},
   * for calibrating the gate. A one-word question that names a table, which {@link #judge} lets through whatever its
   * relevance, is counted here by its relevance: no calibration set holds one.
   */
  public static boolean refuses(double relevance, boolean namesATable, boolean refusedAnyway, double gate) {
    return refusedAnyway || relevance < gate && !(namesATable && relevance >= gate - VALUES_PENALTY);
  }

  /**
   * The relevance a question was judged by, whether it names a table (asked only below the gate; false
   * above it), and the refusal when it missed the gate.
   */
  record Verdict(double relevance, boolean namesATable, Optional<SchemaContextPacket.Refusal> refusal) {}
}
