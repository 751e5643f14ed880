package dev.schemarag.core.retrieval;

import dev.schemarag.core.chunk.Identifiers;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Questions made from a schema's own words, to warm a freshly started JVM before its latency counts.
 * Retrieval's code is compiled by the JIT only once it has run a few thousand times; a service (or
 * an eval) that answers its first questions cold pays for that compilation inside them. Asking these
 * first runs every step a real question runs (the gate, a value named, a grouping, a "who", a year,
 * a question no table answers) over tables spread across the schema, and none of them comes from a
 * question set that is then measured.
 */
public final class WarmUpQuestions {

  /** Every how many questions one asks about something the schema does not hold (the gate's refusal path). */
  private static final int OFF_TOPIC_EVERY = 10;
  private static final String[] OFF_TOPIC = {
      "What is the weather like tomorrow?", "Write me a short poem about the sea.", "Who won the football match last night?",
      "Translate good morning into French.", "How do I bake sourdough bread?"};

  private WarmUpQuestions() {}

  /**
   * {@code count} questions about the tables of {@code model}, always the same for the same schema.
   * Consecutive questions are about tables far apart in name order, so every module takes its turn.
   */
  public static List<String> of(SchemaModel model, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("the number of warm-up questions must be 0 or more, was " + count);
    }
    List<Table> tables = model.tables().stream().filter(t -> !t.columns().isEmpty()).sorted(Comparator.comparing(Table::name)).toList();
    List<String> questions = new ArrayList<>(count);
    if (tables.isEmpty()) {
      return questions;
    }
    int stride = strideFor(tables.size());
    for (int i = 0; questions.size() < count; i++) {
      if (i % OFF_TOPIC_EVERY == OFF_TOPIC_EVERY - 1) {
        questions.add(OFF_TOPIC[(i / OFF_TOPIC_EVERY) % OFF_TOPIC.length]);
        continue;
      }
      Table t = tables.get((int) ((long) i * stride % tables.size()));
      Column c = t.columns().get((i * 7 + 3) % t.columns().size());
      questions.add(question(model, t, c, i));
    }
    return questions;
  }

  private static String question(SchemaModel model, Table t, Column c, int i) {
    String table = words(t.name());
    String column = words(c.name());
    switch (i % 5) {
      case 0:
        return "How many " + table + " are there for each " + column + "?";
      case 1:
        return c.values().isEmpty() ? "Show the " + column + " of every " + table + "."
            : "Which " + table + " have " + column + " " + c.values().get(0) + "?";
      case 2: {
        List<ForeignKey> out = model.outgoing(t.name());
        String by = out.isEmpty() ? column : words(out.get(i % out.size()).toTable());
        return "Total " + column + " of " + table + " in 2024 by " + by;
      }
      case 3:
        return "Who is responsible for the " + table + " with the highest " + column + "?";
      default:
        return t.comment().map(s -> "List the top 5 " + firstWords(s) + " last month")
            .orElse("List the top 5 " + table + " by " + column + " last month");
    }
  }

  /** A table's or column's name as words: its schema or database prefix left out, underscores as spaces. */
  static String words(String name) {
    String local = name.substring(name.lastIndexOf('.') + 1);
    int db = local.indexOf("__");
    if (db >= 0) {
      local = local.substring(db + 2);
    }
    return Identifiers.readable(local);
  }

  /** The start of a comment: its first clause, at most eight words. */
  private static String firstWords(String comment) {
    String[] w = comment.split("[.;:(]", 2)[0].trim().toLowerCase(Locale.ROOT).split("\\s+");
    return String.join(" ", java.util.Arrays.copyOf(w, Math.min(8, w.length)));
  }

  /** A step through the tables that visits every one of them before any twice: coprime with their number. */
  private static int strideFor(int n) {
    int stride = Math.max(1, (int) Math.round(n * 0.618));
    while (gcd(stride, n) != 1) {
      stride++;
    }
    return stride;
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
