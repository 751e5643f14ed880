package dev.schemarag.core.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.docs.SeedDocs;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChunkerTest {

  private static final SchemaModel NO_CATALOG = new SchemaModel("erp", List.of(), List.of());

  private static List<Chunk> ofKind(List<Chunk> chunks, ChunkKind kind) {
    return chunks.stream().filter(c -> c.kind() == kind).toList();
  }

  private static List<Chunk> docOnly(String markdown) {
    return Chunker.chunk(NO_CATALOG, Optional.empty(), Optional.of(MarkdownDocParser.parse(markdown)));
  }

  @Test
  void fiveColumnSubsectionsGiveFiveColumnChunks() {
    assertThat(ofKind(docOnly(SeedDocs.ORDERS), ChunkKind.COLUMN)).extracting(c -> c.column().orElseThrow())
        .containsExactly("order_id", "customer_id", "status", "total_amount", "ordered_at");
  }

  @Test
  void threeQueryPatternsGiveThreeQueryChunks() {
    List<Chunk> q = ofKind(docOnly(SeedDocs.ORDERS), ChunkKind.QUERY);
    assertThat(q).hasSize(3);
    assertThat(q.get(0).promptText()).contains("SELECT date_trunc('month', ordered_at)");
    assertThat(q.get(0).embedText()).contains("Revenue per month").contains("monthly revenue report");
  }

  @Test
  void aQueryChunkGivesBackItsSqlExactly() {
    List<Chunk> q = ofKind(docOnly(SeedDocs.ORDERS), ChunkKind.QUERY);
    assertThat(Chunker.patternSql(q.get(0))).startsWith("SELECT date_trunc('month', ordered_at)").doesNotContain("Revenue per month");
    assertThatThrownBy(() -> Chunker.patternSql(ofKind(docOnly(SeedDocs.ORDERS), ChunkKind.OVERVIEW).get(0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a query pattern");
  }

  @Test
  void purposeAndBusinessContextGiveOneOverviewChunk() {
    List<Chunk> o = ofKind(docOnly(SeedDocs.ORDERS), ChunkKind.OVERVIEW);
    assertThat(o).singleElement().satisfies(c -> assertThat(c.embedText())
        .contains("checkout to delivery").contains("finance reconciles"));
  }

  @Test
  void fkMentionsBecomeRelatedTablesOnEveryChunk() {
    List<Chunk> chunks = docOnly(SeedDocs.ORDERS);
    assertThat(chunks).isNotEmpty().allSatisfy(c -> assertThat(c.relatedTables()).contains("customers", "order_items"));
  }

  @Test
  void aDatabaseWithoutDocsStillIndexesFromItsCatalog() {
    SchemaModel model = catalog(Optional.empty());
    List<Chunk> chunks = Chunker.chunkAll(model, Map.of());
    assertThat(ofKind(chunks, ChunkKind.OVERVIEW)).extracting(Chunk::table).containsExactlyInAnyOrder("orders", "customers");
    assertThat(ofKind(chunks, ChunkKind.COLUMN)).hasSize(5);
    Chunk overview = ofKind(chunks, ChunkKind.OVERVIEW).stream().filter(c -> c.table().equals("orders")).findFirst().orElseThrow();
    assertThat(overview.promptText()).isEqualTo("orders (order_id bigint PK, customer_id bigint FK→customers.customer_id NOT NULL, status text) -- Customer orders");
    assertThat(overview.relatedTables()).containsExactly("customers");
  }

  @Test
  void docsMergeIntoTheCatalogTable() {
    TableDoc doc = MarkdownDocParser.parse(SeedDocs.ORDERS);
    List<Chunk> chunks = Chunker.chunkAll(catalog(Optional.empty()), Map.of("orders", doc));
    // catalog columns plus the two only the doc has
    assertThat(ofKind(chunks, ChunkKind.COLUMN).stream().filter(c -> c.table().equals("orders")))
        .extracting(c -> c.column().orElseThrow())
        .containsExactly("order_id", "customer_id", "status", "total_amount", "ordered_at");
    Chunk status = ofKind(chunks, ChunkKind.COLUMN).stream().filter(c -> c.column().orElse("").equals("status")).findFirst().orElseThrow();
    assertThat(status.embedText()).contains("values: pending, paid");
  }

  @Test
  void idsAndHashesAreDeterministic() {
    List<Chunk> a = Chunker.chunkAll(catalog(Optional.empty()), Map.of());
    List<Chunk> b = Chunker.chunkAll(catalog(Optional.empty()), Map.of());
    assertThat(a).isEqualTo(b);
    assertThat(a).extracting(Chunk::id).doesNotHaveDuplicates();
  }

  @Test
  void aColumnCommentChangesThatColumnsChunkOnly() {
    Map<String, Chunk> before = byId(Chunker.chunkAll(catalog(Optional.empty()), Map.of()));
    Map<String, Chunk> after = byId(Chunker.chunkAll(catalog(Optional.of("Life-cycle state of the order")), Map.of()));
    List<String> changed = before.keySet().stream()
        .filter(id -> !before.get(id).contentHash().equals(after.get(id).contentHash())).toList();
    assertThat(changed).singleElement().satisfies(id -> assertThat(after.get(id).column()).contains("status"));
    assertThat(after.get(changed.get(0)).embedText()).contains("Life-cycle state");
  }

  @Test
  void aColumnChunkNamesItsTableWithoutTheModuleQualifier() {
    Table orders = new Table("sales.orders", Optional.empty(), List.of(Column.of("order_date", "date")), Optional.of("sales"));
    Table union = new Table("pets_1__Pets", Optional.empty(), List.of(Column.of("pet_age", "int")), Optional.of("pets_1"));
    Table unprefixed = new Table("gl_entries", Optional.empty(), List.of(Column.of("amount", "numeric")), Optional.of("finance"));
    List<Chunk> chunks = Chunker.chunkAll(new SchemaModel("db", List.of(orders, union, unprefixed), List.of()), Map.of());
    assertThat(ofKind(chunks, ChunkKind.COLUMN)).extracting(Chunk::embedText)
        .containsExactly("orders order date", "pets pet age", "gl entries amount");
    // The overview still carries the module's words: they are the table's context.
    assertThat(ofKind(chunks, ChunkKind.OVERVIEW).get(0).embedText()).startsWith("sales orders");
  }

  @Test
  void identifiersSplitIntoWords() {
    assertThat(Identifiers.words("CustomerID")).containsExactly("customer", "id");
    assertThat(Identifiers.words("order_items")).containsExactly("order", "items");
    assertThat(Identifiers.words("HTTPServerLog2")).containsExactly("http", "server", "log", "2");
    assertThat(Identifiers.readable("Free Meal Count (K-12)")).isEqualTo("free meal count k 12");
  }

  @Test
  void aCategoricalColumnsSampledValuesAreEmbeddedAndToldApartUnlessTheDocGivesItsDomain() {
    Table tickets = new Table("support.tickets", Optional.empty(), List.of(
        Column.of("priority", "text").withValues(List.of("urgent", "high", "low")), Column.of("subject", "text")), Optional.of("support"));
    SchemaModel model = new SchemaModel("erp", List.of(tickets), List.of());
    List<Chunk> columns = ofKind(Chunker.chunk(model, Optional.of(tickets), Optional.empty()), ChunkKind.COLUMN);
    Chunk priority = columns.get(0);
    assertThat(priority.embedText()).isEqualTo("tickets priority: values: urgent, high, low");
    assertThat(priority.promptText()).startsWith("support.tickets.priority text");
    assertThat(Chunker.columnValues(priority)).isEqualTo("urgent, high, low");
    assertThat(Chunker.columnValues(columns.get(1))).isEmpty();
    // Values change the chunk: a re-snapshot after the data moved re-embeds that column.
    Table before = new Table("support.tickets", Optional.empty(), List.of(Column.of("priority", "text"), Column.of("subject", "text")),
        Optional.of("support"));
    assertThat(ofKind(Chunker.chunk(model, Optional.of(before), Optional.empty()), ChunkKind.COLUMN).get(0).embedHash())
        .isNotEqualTo(priority.embedHash());

    // The doc's domain is the owner's word: it is embedded instead, and the chunk carries no sampled values.
    Table orders = new Table("orders", Optional.empty(), List.of(Column.of("status", "text").withValues(List.of("PAID", "OPEN"))), Optional.empty());
    Chunk status = ofKind(Chunker.chunk(new SchemaModel("erp", List.of(orders), List.of()), Optional.of(orders),
        Optional.of(MarkdownDocParser.parse(SeedDocs.ORDERS))), ChunkKind.COLUMN).stream()
        .filter(c -> c.column().orElseThrow().equals("status")).findFirst().orElseThrow();
    assertThat(status.embedText()).contains("values: pending, paid, shipped").doesNotContain("PAID");
    assertThat(Chunker.columnValues(status)).isEmpty();
  }

  private static Map<String, Chunk> byId(List<Chunk> chunks) {
    Map<String, Chunk> m = new java.util.HashMap<>();
    chunks.forEach(c -> m.put(c.id(), c));
    return m;
  }

  static SchemaModel catalog(Optional<String> statusComment) {
    Table orders = new Table("orders", Optional.of("Customer orders"), List.of(
        new Column("order_id", "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        new Column("customer_id", "bigint", false, Optional.empty(), Optional.empty(), false, Optional.of("customers.customer_id")),
        new Column("status", "text", true, Optional.empty(), statusComment, false, Optional.empty())), Optional.empty());
    Table customers = new Table("customers", Optional.empty(), List.of(
        new Column("customer_id", "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty()),
        Column.of("email", "text")), Optional.empty());
    return new SchemaModel("erp", List.of(orders, customers),
        List.of(new ForeignKey("orders_customer_fk", "orders", List.of("customer_id"), "customers", List.of("customer_id"))));
  }
}
