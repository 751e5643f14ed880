package dev.schemarag.core.answer;

import dev.schemarag.core.retrieval.SchemaContextPacket;
import java.util.List;

/** The prompts generation sends: first attempt, repair after an error, simplify after a timeout. */
public final class Prompts {
  private Prompts() {}

  static final String RULES = """
      You write one PostgreSQL SELECT statement (WITH is allowed) that answers the question.
      Use only the tables and columns listed below. Qualify columns with table aliases when you join.
      Answer with the SQL in a ```sql block and nothing else.""";

  public static String first(String question, SchemaContextPacket packet, List<String> workedExamples) {
    StringBuilder sb = new StringBuilder(RULES).append("\n\n-- schema\n").append(packet.toPrompt()).append('\n');
    if (!workedExamples.isEmpty()) {
      sb.append("\n-- documented queries of these tables\n");
      workedExamples.forEach(e -> sb.append(e).append('\n'));
    }
    return sb.append("\nQuestion: ").append(question).append('\n').toString();
  }

  public static String repair(String firstPrompt, String sql, String error, String hint) {
    return firstPrompt + "\nYour previous SQL failed.\n```sql\n" + sql + "\n```\nError: " + error + "\n"
        + (hint.isBlank() ? "" : hint + "\n") + "Write a corrected statement.\n";
  }

  public static String simplify(String firstPrompt, String sql) {
    return firstPrompt + "\nYour previous SQL took too long and was cancelled.\n```sql\n" + sql + "\n```\n"
        + "Write a simpler, cheaper statement for the same question (fewer joins, no correlated sub-queries).\n";
  }
}
