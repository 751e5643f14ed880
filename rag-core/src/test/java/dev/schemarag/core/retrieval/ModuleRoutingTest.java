package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every table of the module a question is about is a candidate, even one no search returned. */
class ModuleRoutingTest {

  private static Table table(String name, String comment, String... columns) {
    return new Table(name, Optional.of(comment), java.util.Arrays.stream(columns).map(c -> Column.of(c, "text")).toList(),
        Optional.of(name.substring(0, name.indexOf('.'))));
  }

  /** Dense search finds nothing here: what is left to find a table is its words and its module's. */
  private static final DenseSearch NOTHING_NEAR = (kind, vector, limit) -> List.of();

  private static final Embedder ONE_VECTOR = new Embedder() {
    @Override
    public String modelId() {
      return "one-vector";
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      List<float[]> out = new ArrayList<>();
      texts.forEach(t -> out.add(new float[] {1, 0}));
      return out;
    }
  };

  private static List<String> candidates(SchemaModel model, String question) {
    SchemaIndex index = new SchemaIndex(model, Chunker.chunkAll(model, Map.of()), RetrievalSettings.DEFAULT);
    SchemaRetriever retriever = new SchemaRetriever(index, NOTHING_NEAR, ONE_VECTOR, RetrievalSettings.DEFAULT.withRelevanceGate(0));
    return retriever.retrieveWithEvidence(question, RetrievalSettings.DEFAULT.withRelevanceGate(0)).evidence().stream()
        .map(e -> e.table).toList();
  }

  @Test
  void aTableOfTheModuleTheQuestionIsAboutIsACandidateWithoutAWordOfTheQuestion() {
    SchemaModel model = new SchemaModel("db", List.of(
        table("club.members", "Students who joined the club", "member_id", "first_name", "major"),
        table("club.events", "Meetings and kickoffs, with their date and place", "event_id", "event_name", "event_date"),
        table("club.budgets", "Money set aside per category", "budget_id", "category", "amount"),
        table("payroll.payslips", "Monthly pay of each employee", "payslip_id", "employee_id", "gross"),
        table("payroll.employees", "Staff on the payroll", "employee_id", "name")), List.of());

    List<String> candidates = candidates(model, "How many students joined?");

    assertThat(candidates).contains("club.members", "club.events", "club.budgets");
    // The other module says none of the question's words: none of its tables is a candidate.
    assertThat(candidates).doesNotContain("payroll.payslips", "payroll.employees");
  }

  @Test
  void tablesNoSearchReturnedTakeAtMostSixPlacesAheadOfFoundOnes() {
    List<TableEvidence> ranking = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ranking.add(new TableEvidence("park.table_" + i));
    }
    TableEvidence found = new TableEvidence("heroes.superhero");
    found.lexicalTable = 2.5;
    ranking.add(found);

    List<String> order = SchemaRetriever.fewUnfoundFirst(ranking).stream().map(e -> e.table).toList();

    assertThat(order.indexOf("heroes.superhero")).isEqualTo(SchemaRetriever.ROUTED_IN_PLACE);
    assertThat(order).hasSize(11).endsWith("park.table_6", "park.table_7", "park.table_8", "park.table_9");
  }
}
