package dev.schemarag.core.retrieval;

import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.text.PromptData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What retrieval hands to generation: the tables (compact DDL, relevance, why they are here), the
 * FK edges between them, join paths, modules, plus metrics and a timing breakdown.
 *
 * @param ranking the full candidate ranking before the packet was cut (descending score)
 * @param joinPaths join chains between packet tables that are not directly linked, as readable lines
 * @param metrics counts per stage: candidates_dense, candidates_lexical, candidates, from_table_evidence,
 *     from_column_evidence, fk_added, fk_blocked, packet_tables, packet_tokens, schema_tokens
 * @param timingsMs embed, dense, lexical, fuse, expand, total
 * @param patterns documented query patterns of packet tables nearest the question (descending similarity)
 */
public record SchemaContextPacket(String databaseId, String question, List<PacketTable> tables, List<ForeignKey> fkEdges,
                                  List<String> joinPaths, List<String> modules, boolean fullSchema,
                                  List<RankedTable> ranking, Map<String, Long> metrics, Map<String, Double> timingsMs,
                                  List<PatternMatch> patterns, Optional<Refusal> refusal) {

  public SchemaContextPacket {
    patterns = List.copyOf(patterns);
  }

  /** A packet retrieval did not refuse. */
  public SchemaContextPacket(String databaseId, String question, List<PacketTable> tables, List<ForeignKey> fkEdges,
                             List<String> joinPaths, List<String> modules, boolean fullSchema, List<RankedTable> ranking,
                             Map<String, Long> metrics, Map<String, Double> timingsMs, List<PatternMatch> patterns) {
    this(databaseId, question, tables, fkEdges, joinPaths, modules, fullSchema, ranking, metrics, timingsMs, patterns, Optional.empty());
  }

  /**
   * Why the packet is empty: no table's evidence reached the relevance gate, the question holds no word to search
   * for (numbers, signs, "please"), it reads as an instruction to the assistant ({@link AssistantInstructions}), or it is one
   * word that names no table.
   *
   * @param closestTable the table nearest the question, if any had evidence
   * @param score its relevance (best cosine of its chunks)
   * @param gate the gate it missed, or the gate in force when the question was refused whatever its relevance
   * @param reason which of the four
   * @param words the words that read as an instruction to the assistant ({@link Reason#INSTRUCTION}) or the one word
   *     ({@link Reason#ONE_WORD}); else empty
   */
  public record Refusal(Optional<String> closestTable, double score, double gate, Reason reason, String words) {

    /** Why a question is refused. */
    public enum Reason {
      /** No table's evidence reached the gate. */
      BELOW_GATE,
      /** The question holds no word to search the schema for. */
      WORDLESS,
      /** The question asks the assistant to set its rules aside, take on a role, or write a program or a text. */
      INSTRUCTION,
      /** The question is one word, and no table's name holds it. */
      ONE_WORD,
      /** The question is far closer to questions about the world at large than to any table ({@link WorldQuestions}). */
      WORLD
    }

    /** A refusal for a reason that quotes no words of the question. */
    public Refusal(Optional<String> closestTable, double score, double gate, Reason reason) {
      this(closestTable, score, gate, reason, "");
    }

    public boolean wordless() {
      return reason == Reason.WORDLESS;
    }

    /** Names the closest table and its score, and nothing else of the schema. */
    public String message() {
      String closest = closestTable.orElse("(none)");
      return switch (reason) {
        case WORDLESS -> String.format(java.util.Locale.ROOT, "no table of this database fits the question: it holds no word to search the schema for"
            + " (only numbers, signs or words such as 'what' and 'please'); the closest table, %s, scores %.2f", closest, score);
        case INSTRUCTION -> String.format(java.util.Locale.ROOT, "no table of this database fits the question: it reads as an instruction to the"
            + " assistant ('%s'), not a question about the data; the closest table, %s, scores %.2f", words, closest, score);
        case ONE_WORD -> String.format(java.util.Locale.ROOT, "no table of this database fits the question: it is one word ('%s') that no"
            + " table's name holds; the closest table, %s, scores %.2f", words, closest, score);
        case WORLD -> String.format(java.util.Locale.ROOT, "no table of this database fits the question: it reads as a question about"
            + " the world at large, like '%s', more than as one about the data; the closest table, %s, scores %.2f", words, closest, score);
        case BELOW_GATE -> String.format(java.util.Locale.ROOT, "no table of this database fits the question: the closest, %s, scores %.2f,"
            + " below the relevance gate %.2f", closest, score, gate);
      };
    }
  }

  public boolean refused() {
    return refusal.isPresent();
  }

  public List<String> tableNames() {
    return tables.stream().map(PacketTable::name).toList();
  }

  public int tokenEstimate() {
    return tables.stream().mapToInt(PacketTable::tokenEstimate).sum();
  }

  /** The packet as prompt text: DDL, FK edges and join paths, each object on one line and capped ({@link PromptData}). */
  public String toPrompt() {
    List<String> lines = new ArrayList<>();
    if (!modules.isEmpty()) {
      lines.add("-- modules: " + PromptData.line(String.join(", ", modules), PromptData.MAX_OBJECT_CHARS));
    }
    for (PacketTable t : tables) {
      lines.add(PromptData.tableLine(t.compactDdl()));
    }
    if (!fkEdges.isEmpty()) {
      lines.add("-- foreign keys:");
      fkEdges.forEach(fk -> lines.add("--   " + PromptData.line(fk.joinCondition(), PromptData.MAX_OBJECT_CHARS)));
    }
    if (!joinPaths.isEmpty()) {
      lines.add("-- join paths:");
      joinPaths.forEach(p -> lines.add("--   " + PromptData.line(p, PromptData.MAX_OBJECT_CHARS)));
    }
    return String.join("\n", lines);
  }
}
