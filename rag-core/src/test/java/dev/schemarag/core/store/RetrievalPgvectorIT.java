package dev.schemarag.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.docs.MarkdownDocParser;
import dev.schemarag.core.docs.TableDoc;
import dev.schemarag.core.embed.CachingEmbedder;
import dev.schemarag.core.embed.Langchain4jEmbedder;
import dev.schemarag.core.index.IndexSync;
import dev.schemarag.core.retrieval.PacketTable;
import dev.schemarag.core.retrieval.RetrievalSettings;
import dev.schemarag.core.retrieval.SchemaContextPacket;
import dev.schemarag.core.retrieval.SchemaIndex;
import dev.schemarag.core.retrieval.SchemaRetriever;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.infra.TestInfra;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The retrieval engine over a real pgvector index with the real default embedding model. */
@Tag("integration")
class RetrievalPgvectorIT {

  private static ConnectionSource db;
  private static PgChunkStore store;
  private static Langchain4jEmbedder model;

  @BeforeAll
  static void start() throws Exception {
    db = ConnectionSource.of(TestInfra.postgresUrl(), null, null);
    store = new PgChunkStore(db);
    model = Langchain4jEmbedder.create("all-minilm-l6-v2", null, null, 32);
    store.ensureSchema(model.dimension());
  }

  private static Table table(String name, String module, String comment, Column... columns) {
    return new Table(name, Optional.of(comment), List.of(columns), Optional.of(module));
  }

  private static Column pk(String name) {
    return new Column(name, "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty());
  }

  private static Column col(String name, String type, String comment) {
    return new Column(name, type, true, Optional.empty(), Optional.of(comment), false, Optional.empty());
  }

  private static ForeignKey fk(String from, String col, String to, String toCol) {
    return new ForeignKey(from + "_" + col + "_fk", from, List.of(col), to, List.of(toCol));
  }

  /** A small ERP: HR, sales and inventory modules, 13 tables. */
  static SchemaModel erp(String db, String salaryComment) {
    List<Table> t = new ArrayList<>();
    t.add(table("hr.employees", "hr", "People employed by the company", pk("employee_id"), col("full_name", "text", "Employee name"),
        col("department_id", "bigint", "Department the employee works in"), col("salary", "numeric", salaryComment),
        col("hired_on", "date", "First working day")));
    t.add(table("hr.departments", "hr", "Organisational units", pk("department_id"), col("name", "text", "Department name"),
        col("manager_id", "bigint", "Employee who leads the department")));
    t.add(table("hr.leave_requests", "hr", "Vacation and sick leave requests", pk("leave_id"), col("employee_id", "bigint", "Who asks"),
        col("starts_on", "date", "First day of leave"), col("days", "int", "Number of days off")));
    t.add(table("hr.payroll_runs", "hr", "Monthly salary payments", pk("run_id"), col("paid_on", "date", "Payment date"),
        col("total_paid", "numeric", "Sum of all salaries paid")));
    t.add(table("sales.customers", "sales", "Companies and people who buy from us", pk("customer_id"),
        col("company_name", "text", "Customer name"), col("country", "text", "Country of the billing address")));
    t.add(table("sales.orders", "sales", "Customer orders", pk("order_id"), col("customer_id", "bigint", "Who ordered"),
        col("ordered_at", "timestamptz", "Checkout time"), col("total_amount", "numeric", "Order total with tax")));
    t.add(table("sales.order_items", "sales", "Lines of an order", pk("item_id"), col("order_id", "bigint", "The order"),
        col("product_id", "bigint", "What was ordered"), col("quantity", "int", "How many units")));
    t.add(table("sales.invoices", "sales", "Invoices sent to customers", pk("invoice_id"), col("order_id", "bigint", "Invoiced order"),
        col("due_on", "date", "Payment due date"), col("paid", "boolean", "Whether the invoice was paid")));
    t.add(table("inventory.products", "inventory", "Things we sell", pk("product_id"), col("sku", "text", "Stock keeping unit"),
        col("title", "text", "Product name"), col("unit_price", "numeric", "List price per unit")));
    t.add(table("inventory.warehouses", "inventory", "Storage locations", pk("warehouse_id"), col("city", "text", "Where it is")));
    t.add(table("inventory.stock_levels", "inventory", "Units on hand per product and warehouse", pk("stock_id"),
        col("product_id", "bigint", "Product"), col("warehouse_id", "bigint", "Warehouse"), col("on_hand", "int", "Units in stock")));
    t.add(table("inventory.suppliers", "inventory", "Vendors we buy products from", pk("supplier_id"), col("vendor_name", "text", "Supplier name")));
    t.add(table("inventory.purchase_orders", "inventory", "Orders we place with suppliers", pk("po_id"),
        col("supplier_id", "bigint", "Supplier"), col("expected_on", "date", "Expected delivery")));
    List<ForeignKey> fks = List.of(fk("hr.employees", "department_id", "hr.departments", "department_id"),
        fk("hr.departments", "manager_id", "hr.employees", "employee_id"),
        fk("hr.leave_requests", "employee_id", "hr.employees", "employee_id"),
        fk("sales.orders", "customer_id", "sales.customers", "customer_id"),
        fk("sales.order_items", "order_id", "sales.orders", "order_id"),
        fk("sales.order_items", "product_id", "inventory.products", "product_id"),
        fk("sales.invoices", "order_id", "sales.orders", "order_id"),
        fk("inventory.stock_levels", "product_id", "inventory.products", "product_id"),
        fk("inventory.stock_levels", "warehouse_id", "inventory.warehouses", "warehouse_id"),
        fk("inventory.purchase_orders", "supplier_id", "inventory.suppliers", "supplier_id"));
    return new SchemaModel(db, t, fks);
  }

  /** The schema's chunks, stored with their vectors under its database id. */
  private static List<Chunk> indexed(SchemaModel schema) throws java.sql.SQLException {
    return indexed(schema, Map.of());
  }

  private static List<Chunk> indexed(SchemaModel schema, Map<String, TableDoc> docs) throws java.sql.SQLException {
    List<Chunk> chunks = Chunker.chunkAll(schema, docs);
    new IndexSync(store, new CachingEmbedder(model, new PgEmbeddingCache(db)), 32).sync(schema.databaseId(), Optional.empty(), chunks, 1, n -> { });
    return chunks;
  }

  @Test
  void indexesOnceEmbedsNothingTwiceAndReembedsOnlyTheChangedColumn() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    CachingEmbedder embedder = new CachingEmbedder(model, new PgEmbeddingCache(db));
    IndexSync sync = new IndexSync(store, embedder, 32);
    List<Chunk> chunks = Chunker.chunkAll(erp(dbId, "Gross monthly salary"), Map.of());

    IndexSync.Result first = sync.sync(dbId, Optional.empty(), chunks, 1, n -> { });
    assertThat(first.added()).isEqualTo(chunks.size());
    assertThat(store.count(dbId)).isEqualTo(chunks.size());

    IndexSync.Result again = sync.sync(dbId, Optional.empty(), chunks, 2, n -> { });
    assertThat(again.unchanged()).isEqualTo(chunks.size());
    assertThat(again.embedded()).isZero();

    // A text no earlier run has embedded: the cache in the test cluster outlives test runs.
    List<Chunk> changed = Chunker.chunkAll(erp(dbId, "Yearly base pay before tax, revision " + dbId), Map.of());
    IndexSync.Result comment = sync.sync(dbId, Optional.of("hr.employees"),
        changed.stream().filter(c -> c.table().equals("hr.employees")).toList(), 3, n -> { });
    assertThat(comment.updated()).isEqualTo(1);
    assertThat(comment.embedded()).isEqualTo(1);
    assertThat(comment.added() + comment.removed()).isZero();

    // Replaying an older version never regresses the index.
    assertThat(store.upsert(chunks.subList(0, 1), List.of(model.embed("stale")), model.modelId(), 0)).isZero();
    assertThat(store.stored(dbId, Optional.empty()).values()).allSatisfy(s -> assertThat(s.modelId()).isEqualTo("all-minilm-l6-v2"));
  }

  @Test
  void theVectorsReadWithTheChunksSearchAsPgvectorDoes() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    SchemaModel schema = erp(dbId, "Gross monthly salary");
    List<Chunk> chunks = indexed(schema);
    PgChunkStore.ChunksWithVectors all = store.loadWithVectors(dbId, null);
    assertThat(all.chunks()).hasSameSizeAs(chunks);
    // Every searched text has its vector, exactly as embedded.
    for (Chunk c : chunks) {
      if (dev.schemarag.core.retrieval.ChunkVectors.KINDS.contains(c.kind())) {
        assertThat(all.vectors().get(dev.schemarag.core.retrieval.ChunkVectors.key(c.kind(), c.embedHash()))).as(c.id())
            .containsExactly(model.embed(c.embedText()), org.assertj.core.data.Offset.offset(1e-6f));
      }
    }
    // Read alone, for chunks already in hand: the same vectors.
    Map<String, float[]> alone = store.vectors(dbId);
    assertThat(alone.keySet()).isEqualTo(all.vectors().keySet());
    alone.forEach((k, v) -> assertThat(v).as(k).containsExactly(all.vectors().get(k)));
    SchemaIndex index = new SchemaIndex(schema, all.chunks(), RetrievalSettings.DEFAULT).withVectors(all.vectors());
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      for (String q : List.of("average salary per department", "units in stock per warehouse", "unpaid invoices of a customer")) {
        float[] v = model.embed(q);
        for (ChunkKind kind : List.of(ChunkKind.OVERVIEW, ChunkKind.COLUMN)) {
          List<dev.schemarag.core.retrieval.DenseSearch.Hit> held = index.denseOr(dense).nearest(kind, v, 8);
          List<dev.schemarag.core.retrieval.DenseSearch.Hit> pg = dense.nearest(kind, v, 8);
          assertThat(held).as(q).extracting(h -> h.table() + "." + h.subject().orElse(""))
              .containsExactlyElementsOf(pg.stream().map(h -> h.table() + "." + h.subject().orElse("")).toList());
          for (int i = 0; i < pg.size(); i++) {
            assertThat(held.get(i).similarity()).isCloseTo(pg.get(i).similarity(), org.assertj.core.data.Offset.offset(1e-5));
          }
        }
      }
    }
    // One table's read: its chunks and only the vectors of their texts.
    PgChunkStore.ChunksWithVectors one = store.loadWithVectors(dbId, List.of("hr.departments"));
    assertThat(one.chunks()).isNotEmpty().allSatisfy(c -> assertThat(c.table()).isEqualTo("hr.departments"));
    assertThat(one.vectors().keySet()).isEqualTo(one.chunks().stream().filter(c -> dev.schemarag.core.retrieval.ChunkVectors.KINDS
        .contains(c.kind())).map(c -> dev.schemarag.core.retrieval.ChunkVectors.key(c.kind(), c.embedHash())).collect(java.util.stream.Collectors.toSet()));
    assertThat(store.loadWithVectors(dbId, List.of()).chunks()).isEmpty();
  }

  @Test
  void retrievesTheTablesAQuestionIsAboutWithScoresDescending() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    SchemaModel model0 = erp(dbId, "Gross monthly salary");
    List<Chunk> chunks = indexed(model0);
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      assertThat(dense.nearest(ChunkKind.COLUMN, model.embed("salary"), 3).get(0).subject()).contains("salary");
      SchemaRetriever retriever = new SchemaRetriever(new SchemaIndex(model0, chunks, RetrievalSettings.DEFAULT), dense, model,
          RetrievalSettings.DEFAULT);

      SchemaContextPacket p = retriever.retrieve("What is the average salary per department?");
      assertThat(p.tableNames()).contains("hr.employees", "hr.departments");
      assertThat(p.tableNames().get(0)).startsWith("hr.");
      assertThat(p.fullSchema()).isFalse();
      assertThat(p.modules()).contains("hr");
      for (int i = 1; i < p.ranking().size(); i++) {
        assertThat(p.ranking().get(i).score()).isLessThanOrEqualTo(p.ranking().get(i - 1).score());
      }
      assertThat(p.fkEdges()).anySatisfy(fk -> assertThat(fk.joinCondition())
          .isEqualTo("hr.employees.department_id = hr.departments.department_id"));
      assertThat(p.timingsMs()).containsKeys("embed", "dense", "lexical", "fuse", "expand", "total");
      assertThat(p.metrics()).containsKeys("candidates", "fk_added", "fk_blocked", "from_table_evidence", "from_column_evidence");
      assertThat(p.toPrompt()).contains("hr.employees (employee_id bigint PK");

      SchemaContextPacket stock = retriever.retrieve("How many units of each product are in stock in each warehouse?");
      // The learned selector puts the named product table and the stock fact table first, in either order.
      assertThat(stock.tableNames().subList(0, 2)).contains("inventory.stock_levels");
      assertThat(stock.tableNames()).contains("inventory.products", "inventory.warehouses");
    }
  }

  @Test
  void theLearnedSelectorRanksTheLeadingTablesByProbabilityAndKeepsThoseAboveItsThreshold() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    SchemaModel model0 = erp(dbId, "Gross monthly salary");
    List<Chunk> chunks = indexed(model0);
    RetrievalSettings learned = RetrievalSettings.DEFAULT.withSelector(RetrievalSettings.SELECTOR_LEARNED);
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      SchemaRetriever retriever = new SchemaRetriever(new SchemaIndex(model0, chunks, learned), dense, model, learned);
      SchemaRetriever.Result r = retriever.retrieveWithEvidence("How many units of each product are in stock in each warehouse?", learned);
      List<dev.schemarag.core.retrieval.TableSelector.Candidate> judged = r.judged();
      assertThat(judged).isNotEmpty();
      assertThat(judged).extracting(dev.schemarag.core.retrieval.TableSelector.Candidate::probability)
          .allSatisfy(p -> assertThat(p).isBetween(0.0, 1.0));
      // By probability, but a table of an unlikely part of the schema follows the others: a more probable table after a
      // less probable one was put there, and is not in the packet.
      Set<String> taken = r.packet().tables().stream().filter(t -> t.source().equals("retrieval")).map(t -> t.name())
          .collect(java.util.stream.Collectors.toSet());
      for (int i = 0; i < judged.size(); i++) {
        for (int j = i + 1; j < judged.size(); j++) {
          if (judged.get(j).probability() > judged.get(i).probability()) {
            assertThat(taken).doesNotContain(judged.get(j).table());
          }
        }
      }
      // The packet's ranking is the selector's order; every table it took from retrieval cleared the threshold (or led).
      assertThat(r.packet().ranking().get(0).name()).isEqualTo(judged.get(0).table());
      double threshold = dev.schemarag.core.retrieval.SelectorModel.forModel("all-minilm-l6-v2").orElseThrow().threshold();
      assertThat(r.packet().tables()).filteredOn(t -> t.source().equals("retrieval")).allSatisfy(t -> assertThat(judged.stream()
          .filter(c -> c.table().equals(t.name())).findFirst().orElseThrow().probability() >= threshold
          || t.name().equals(judged.get(0).table())).isTrue());
      assertThat(r.packet().tableNames()).contains("inventory.stock_levels", "inventory.products", "inventory.warehouses");
      assertThat(r.packet().metrics()).containsEntry("fk_added", 0L);

      // The evidence sizer computes the same features, with no probability.
      SchemaRetriever.Result e = retriever.retrieveWithEvidence("How many units of each product are in stock in each warehouse?",
          RetrievalSettings.DEFAULT.withSelector(RetrievalSettings.SELECTOR_EVIDENCE));
      assertThat(e.judged()).hasSameSizeAs(judged).allSatisfy(c -> assertThat(c.probability()).isNaN());
    }
  }

  /**
   * Settings whose selector keeps the few likeliest tables: this 13-table schema is too small for the default
   * threshold to leave many out, and a table added by another step must be one retrieval left out.
   */
  private static RetrievalSettings tight(Map<String, String> overrides) {
    return RetrievalSettings.from(dev.schemarag.core.config.SchemaragConfig.defaults().with(overrides)).withSelector(0.3);
  }

  @Test
  void aDocumentedQueryPatternCloseToTheQuestionBringsTheTablesItsSqlReads() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    SchemaModel model0 = erp(dbId, "Gross monthly salary");
    // The owner's answer to "revenue" counts invoiced orders: a table no word of the question names.
    TableDoc orders = MarkdownDocParser.parse("""
        # Table: sales.orders

        ## Common Queries

        ### Query Pattern: Monthly revenue
        ```sql
        SELECT date_trunc('month', o.ordered_at) AS month, sum(o.total_amount) AS revenue
        FROM sales.orders o JOIN sales.invoices i ON i.order_id = o.order_id GROUP BY 1 ORDER BY 1
        ```
        - Use case: What is our revenue per month
        """);
    List<Chunk> chunks = indexed(model0, Map.of("sales.orders", orders));
    RetrievalSettings tight = tight(Map.of());
    RetrievalSettings never = tight(Map.of("retrieval.pattern.tables.similarity", "0"));
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      SchemaRetriever retriever = new SchemaRetriever(new SchemaIndex(model0, chunks, tight), dense, model, tight);
      String question = "monthly revenue for 2024";
      SchemaContextPacket withPatterns = retriever.retrieve(question);
      SchemaContextPacket without = retriever.retrieve(question, never);
      assertThat(withPatterns.patterns()).first().satisfies(p -> assertThat(p.similarity()).isGreaterThanOrEqualTo(RetrievalSettings.DEFAULT.patternTables()));
      assertThat(withPatterns.tableNames()).contains("sales.orders", "sales.invoices");
      assertThat(without.tableNames()).doesNotContain("sales.invoices");
      assertThat(withPatterns.tables()).filteredOn(t -> t.name().equals("sales.invoices")).singleElement()
          .satisfies(t -> assertThat(t.source()).isEqualTo("pattern"));
      assertThat(without.tables()).noneSatisfy(t -> assertThat(t.source()).isEqualTo("pattern"));
    }
  }

  @Test
  void aPhraseOfTheQuestionBringsItsNearestTableWhenAskedFor() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    SchemaModel model0 = erp(dbId, "Gross monthly salary");
    List<Chunk> chunks = indexed(model0);
    // Only the tables the selector is surest of, so that the packet leaves out one that a phrase can bring: the leave
    // requests say "sick" and "leave" themselves, which since the selector counts a table's own words lifts them into
    // the tight packets (0.3) without the phrase.
    RetrievalSettings off = tight(Map.of()).withSelector(0.6);
    RetrievalSettings on = tight(Map.of("retrieval.phrase.tables.similarity", "auto")).withSelector(0.6);
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      SchemaRetriever retriever = new SchemaRetriever(new SchemaIndex(model0, chunks, off), dense, model, off);
      // The whole question's vector leans to pay and units; its phrase "sick leave" alone finds the leave requests.
      String question = "Sick leave per organisational unit with the total paid in salaries";
      SchemaContextPacket without = retriever.retrieve(question, off);
      SchemaContextPacket with = retriever.retrieve(question, on);
      assertThat(without.metrics()).containsEntry("phrase_added", 0L);
      assertThat(without.tableNames()).doesNotContain("hr.leave_requests");
      assertThat(with.metrics()).containsEntry("phrase_added", 1L);
      assertThat(with.tables()).filteredOn(t -> t.source().equals("phrase")).extracting(PacketTable::name).containsExactly("hr.leave_requests");
      assertThat(with.tableNames()).containsAll(without.tableNames());
      assertThat(with.timingsMs()).containsKey("phrases");
    }
  }

  @Test
  void severalVectorsInOneStatementFindWhatEachFindsAlone() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    indexed(erp(dbId, "Gross monthly salary"));
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      List<float[]> vectors = Stream.of("vacation days", "stock in warehouses", "invoices paid late").map(model::embed).toList();
      List<List<dev.schemarag.core.retrieval.DenseSearch.Hit>> each = dense.nearestEach(ChunkKind.OVERVIEW, vectors, 3);
      assertThat(each).hasSize(3);
      for (int i = 0; i < vectors.size(); i++) {
        assertThat(each.get(i)).extracting(dev.schemarag.core.retrieval.DenseSearch.Hit::table)
            .containsExactlyElementsOf(dense.nearest(ChunkKind.OVERVIEW, vectors.get(i), 3).stream()
                .map(dev.schemarag.core.retrieval.DenseSearch.Hit::table).toList());
      }
      assertThat(each.get(0).get(0).table()).isEqualTo("hr.leave_requests");
      assertThat(dense.nearestEach(ChunkKind.OVERVIEW, List.of(), 3)).isEmpty();
    }
  }

  @Test
  void aQuestionThatNamesATableByItsNamePassesJustBelowTheGate() throws Exception {
    SchemaIndex index = indexedErp();
    try (PgDenseSearch dense = new PgDenseSearch(db, index.model().databaseId())) {
      // Each question gets a gate a little above its own relevance, within the penalty a named table may be under it.
      String naming = "Which warehouses stand in cold places?";
      SchemaContextPacket named = new SchemaRetriever(index, dense, model, RetrievalSettings.DEFAULT.withRelevanceGate(gateAbove(index, dense, naming)))
          .retrieve(naming);
      assertThat(named.refused()).isFalse();
      assertThat(named.metrics()).containsEntry("names_table", 1L);
      assertThat(named.tableNames()).contains("inventory.warehouses");

      String unnamed = "Tell me a joke about cats";
      SchemaContextPacket refused = new SchemaRetriever(index, dense, model, RetrievalSettings.DEFAULT.withRelevanceGate(gateAbove(index, dense, unnamed)))
          .retrieve(unnamed);
      assertThat(refused.refused()).isTrue();
      assertThat(refused.metrics()).containsEntry("names_table", 0L);
    }
  }

  @Test
  void aWordTheSchemaNeverSaysIsSearchedAsTheNameWordsNearestToIt() throws Exception {
    SchemaIndex index = indexedErp();
    try (PgDenseSearch dense = new PgDenseSearch(db, index.model().databaseId())) {
      SchemaRetriever retriever = new SchemaRetriever(index, dense, model, RetrievalSettings.DEFAULT);
      // No text of the schema says "staff": BM25 finds the employees by their name's word the model puts nearest to it.
      SchemaRetriever.Result staff = retriever.retrieveWithEvidence("List our staff", RetrievalSettings.DEFAULT);
      assertThat(staff.packet().metrics().get("name_words_searched")).isPositive();
      assertThat(staff.evidence()).filteredOn(e -> e.table().equals("hr.employees")).singleElement()
          .satisfies(e -> assertThat(e.lexicalTable()).as("lexical evidence of the employees").isPositive());

      SchemaRetriever.Result known = retriever.retrieveWithEvidence("Which departments have the most employees?", RetrievalSettings.DEFAULT);
      assertThat(known.packet().metrics()).as("every word known: no call to the model").containsEntry("name_words_searched", 0L);
    }
  }

  @Test
  void aOneWordQuestionPassesOnlyWhenATableNameHoldsTheWord() throws Exception {
    SchemaIndex index = indexedErp();
    try (PgDenseSearch dense = new PgDenseSearch(db, index.model().databaseId())) {
      SchemaRetriever retriever = new SchemaRetriever(index, dense, model, RetrievalSettings.DEFAULT.withRelevanceGate(0.36));
      assertThat(retriever.retrieve("warehouses").tableNames()).contains("inventory.warehouses");
      // No table is called "items" alone; the order items are.
      assertThat(retriever.retrieve("items?").tableNames()).contains("sales.order_items");
      // "start" is close to the leave requests' first day, and names nothing.
      SchemaContextPacket start = retriever.retrieve("start");
      assertThat(start.refused()).isTrue();
      assertThat(start.refusal().orElseThrow().reason()).isEqualTo(SchemaContextPacket.Refusal.Reason.ONE_WORD);
      assertThat(start.metrics()).containsEntry("one_word", 1L);
    }
  }

  @Test
  void aQuestionAboutTheWorldInTheSchemasWordsIsRefusedAsSuch() throws Exception {
    SchemaIndex index = indexedErp();
    try (PgDenseSearch dense = new PgDenseSearch(db, index.model().databaseId())) {
      SchemaRetriever retriever = new SchemaRetriever(index, dense, model, RetrievalSettings.DEFAULT.withRelevanceGate(0.36));
      // It reaches the gate on the warehouses, yet reads as the world's weather.
      SchemaContextPacket weather = retriever.retrieve("Will it rain at our warehouses in Hamburg tomorrow?");
      assertThat(weather.metrics().get("relevance_milli")).as("above the gate").isGreaterThanOrEqualTo(360L);
      assertThat(weather.refusal().orElseThrow().reason()).isEqualTo(SchemaContextPacket.Refusal.Reason.WORLD);
      assertThat(weather.metrics()).containsEntry("world", 1L);
      SchemaContextPacket stock = retriever.retrieve("Which warehouses hold the most stock?");
      assertThat(stock.tableNames()).contains("inventory.warehouses");
      assertThat(stock.metrics()).containsKey("world_milli").containsEntry("world", 0L);
    }
  }

  /** The small ERP indexed under a database id of its own, with default settings. */
  private static SchemaIndex indexedErp() throws java.sql.SQLException {
    SchemaModel schema = erp("it-" + UUID.randomUUID(), "Gross monthly salary");
    return new SchemaIndex(schema, indexed(schema), RetrievalSettings.DEFAULT);
  }

  /** A gate 0.03 above the question's relevance with the gate open. */
  private static double gateAbove(SchemaIndex index, PgDenseSearch dense, String question) {
    SchemaContextPacket open = new SchemaRetriever(index, dense, model, RetrievalSettings.DEFAULT.withRelevanceGate(0)).retrieve(question);
    return open.metrics().get("relevance_milli") / 1000.0 + 0.03;
  }

  @Test
  void aSmallSchemaIsSentWhole() throws Exception {
    String dbId = "it-" + UUID.randomUUID();
    SchemaModel full = erp(dbId, "Gross monthly salary");
    SchemaModel small = new SchemaModel(dbId, full.tables().stream().filter(t -> t.name().startsWith("hr.")).toList(), full.foreignKeys());
    List<Chunk> chunks = Chunker.chunkAll(small, Map.of());
    new IndexSync(store, new CachingEmbedder(model, new PgEmbeddingCache(db)), 32).sync(dbId, Optional.empty(), chunks, 1, n -> { });
    try (PgDenseSearch dense = new PgDenseSearch(db, dbId)) {
      SchemaContextPacket p = new SchemaRetriever(new SchemaIndex(small, chunks, RetrievalSettings.DEFAULT), dense, model,
          RetrievalSettings.DEFAULT).retrieve("Who asked for the most days of leave?");
      assertThat(p.fullSchema()).isTrue();
      assertThat(p.tables()).hasSize(4).allSatisfy(t -> assertThat(t.source()).isEqualTo("full_schema"));
      assertThat(p.tables().get(0).name()).isEqualTo("hr.leave_requests");
      assertThat(p.tables()).extracting(PacketTable::similarity).isSortedAccordingTo((a, b) -> Double.compare(b, a));
    }
  }
}
