package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Chunker;
import dev.schemarag.core.embed.Embedder;
import dev.schemarag.core.index.ChunkStore;
import dev.schemarag.core.index.InMemoryChunkStore;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.search.LexicalIndex;
import dev.schemarag.core.search.SchemaAnalyzer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A schema index updated table by table answers exactly like one built from scratch over the final
 * state: same model, same statistics, same lexical scores, same ranking and packets.
 */
class IncrementalIndexTest {

  private static final RetrievalSettings SETTINGS = RetrievalSettings.DEFAULT.withRelevanceGate(0);

  private static final List<String> QUESTIONS = List.of(
      "Which employees were hired after 2020 and what is their salary?",
      "Total amount of invoices per customer",
      "List the open positions (vacancies) in each department",
      "How many support tickets did each agent answer?",
      "Stock level of each product in every warehouse",
      "orders with their order lines and products",
      "Who approved the leave requests of the sales department?",
      "invoice due date and payment status",
      "departments of the support agents",
      "training courses attended by employees");

  private static Column col(String name, String type, String comment) {
    return new Column(name, type, true, Optional.empty(), Optional.ofNullable(comment), false, Optional.empty());
  }

  private static Column pk(String name) {
    return new Column(name, "bigint", false, Optional.empty(), Optional.empty(), true, Optional.empty());
  }

  private static Column ref(String name, String target) {
    return new Column(name, "bigint", true, Optional.empty(), Optional.empty(), false, Optional.of(target));
  }

  private static Table table(String name, String comment, Column... columns) {
    return new Table(name, Optional.ofNullable(comment), List.of(columns), Optional.of(name.substring(0, name.indexOf('.'))));
  }

  private static ForeignKey fk(String from, String column, String to, String toColumn) {
    return new ForeignKey(from.replace('.', '_') + "_" + column + "_fkey", from, List.of(column), to, List.of(toColumn));
  }

  /** The catalog as it changes: tables in catalog order, foreign keys by name. */
  private static final class Catalog {
    final Map<String, Table> tables = new LinkedHashMap<>();
    final Map<String, ForeignKey> fks = new LinkedHashMap<>();

    SchemaModel model() {
      return new SchemaModel("erp", tables.values(), fks.values());
    }
  }

  private static Catalog erp() {
    Catalog c = new Catalog();
    for (Table t : List.of(
        table("hr.employees", "Everyone employed by the company", pk("employee_id"), col("first_name", "text", null),
            col("last_name", "text", null), ref("department_id", "hr.departments.department_id"), col("hire_date", "date", "first working day")),
        table("hr.departments", "Organisational units", pk("department_id"), col("name", "text", null)),
        table("hr.leave_requests", "Time-off requests (vacation, sick days)", pk("leave_request_id"),
            ref("employee_id", "hr.employees.employee_id"), ref("approved_by", "hr.employees.employee_id"), col("status", "text", null)),
        table("hr.job_openings", "Open positions (vacancies) being recruited for", pk("opening_id"), col("title", "text", null),
            col("department_id", "bigint", null)),
        table("sales.customers", "Companies and people who buy from us", pk("customer_id"), col("name", "text", null),
            col("country", "text", null)),
        table("sales.orders", "Customer orders", pk("order_id"), ref("customer_id", "sales.customers.customer_id"),
            ref("sales_rep_id", "hr.employees.employee_id"), col("total", "numeric", "order total in EUR"), col("created_at", "timestamp", null)),
        table("sales.order_lines", null, ref("order_id", "sales.orders.order_id"), ref("product_id", "inventory.products.product_id"),
            col("quantity", "int", null)),
        table("inventory.products", "Things we sell", pk("product_id"), col("name", "text", null), col("unit_price", "numeric", null)),
        table("inventory.warehouses", "Storage sites", pk("warehouse_id"), col("city", "text", null)),
        table("inventory.stock_levels", "Units on hand per product and warehouse", ref("product_id", "inventory.products.product_id"),
            ref("warehouse_id", "inventory.warehouses.warehouse_id"), col("on_hand", "int", "units in stock")),
        table("support.agents", "Employees who answer support tickets", pk("agent_id"), ref("employee_id", "hr.employees.employee_id"),
            col("max_open_tickets", "int", null)),
        table("support.tickets", "Customer support requests", pk("ticket_id"), ref("agent_id", "support.agents.agent_id"),
            col("status", "text", null), col("created_at", "timestamp", null)))) {
      c.tables.put(t.name(), t);
    }
    for (ForeignKey k : List.of(
        fk("hr.employees", "department_id", "hr.departments", "department_id"),
        fk("hr.leave_requests", "employee_id", "hr.employees", "employee_id"),
        fk("hr.leave_requests", "approved_by", "hr.employees", "employee_id"),
        fk("sales.orders", "customer_id", "sales.customers", "customer_id"),
        fk("sales.orders", "sales_rep_id", "hr.employees", "employee_id"),
        fk("sales.order_lines", "order_id", "sales.orders", "order_id"),
        fk("sales.order_lines", "product_id", "inventory.products", "product_id"),
        fk("inventory.stock_levels", "product_id", "inventory.products", "product_id"),
        fk("inventory.stock_levels", "warehouse_id", "inventory.warehouses", "warehouse_id"),
        fk("support.agents", "employee_id", "hr.employees", "employee_id"),
        fk("support.tickets", "agent_id", "support.agents", "agent_id"))) {
      c.fks.put(k.name(), k);
    }
    return c;
  }

  /** The chunks of a catalog state, by table, as the indexer would store them. */
  private static Map<String, List<Chunk>> chunks(SchemaModel model) {
    Map<String, List<Chunk>> out = new LinkedHashMap<>();
    for (Chunk c : Chunker.chunkAll(model, Map.of())) {
      out.computeIfAbsent(c.table(), t -> new ArrayList<>()).add(c);
    }
    out.replaceAll((t, cs) -> cs.stream().sorted(Comparator.comparing(Chunk::id)).toList());
    return out;
  }

  /**
   * Moves the index from one catalog state to the next as the pipeline would: the new state's
   * chunks written to the store, then one update per table whose catalog entry or chunks changed,
   * each with its chunks read back from the store.
   */
  private static SchemaIndex apply(SchemaIndex index, SchemaModel before, SchemaModel after, InMemoryChunkStore store) {
    Map<String, List<Chunk>> old = chunks(before);
    Map<String, List<Chunk>> now = chunks(after);
    write(store, now);
    Set<String> names = new LinkedHashSet<>();
    before.tables().forEach(t -> names.add(t.name()));
    after.tables().forEach(t -> names.add(t.name()));
    for (String name : names) {
      boolean changed = !before.table(name).equals(after.table(name))
          || !hashes(old.get(name)).equals(hashes(now.get(name)));
      if (changed) {
        List<Chunk> read = store.load("erp", List.of(name));
        // An index that holds vectors gets the changed table's with its chunks, as the query service reads them.
        index = index.withTables(List.of(new SchemaIndex.TableChange(name, after.table(name), after.edges(name), read,
            index.vectors().isPresent() ? vectorsOf(read) : Map.of())));
      }
    }
    return index;
  }

  /** The store holding exactly {@code chunks} (vectors play no part here: dense search is the same for both indexes). */
  private static void write(InMemoryChunkStore store, Map<String, List<Chunk>> chunks) {
    Set<String> ids = chunks.values().stream().flatMap(List::stream).map(Chunk::id).collect(Collectors.toSet());
    List<ChunkStore.Removal> gone = store.all().keySet().stream().filter(id -> !ids.contains(id)).map(id -> new ChunkStore.Removal(id, 1)).toList();
    List<ChunkStore.Row> rows = chunks.values().stream().flatMap(List::stream).map(c -> new ChunkStore.Row(c, new float[0], 1)).toList();
    store.write(rows, gone, "none");
  }

  /** The vectors of the chunks' texts by {@link ChunkVectors#key}, from the word-hash embedder. */
  private static Map<String, float[]> vectorsOf(Collection<Chunk> chunks) {
    List<Chunk> list = List.copyOf(chunks);
    List<float[]> vectors = new WordHashEmbedder().embedAll(list.stream().map(Chunk::embedText).toList());
    Map<String, float[]> out = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      out.put(ChunkVectors.key(list.get(i).kind(), list.get(i).embedHash()), vectors.get(i));
    }
    return out;
  }

  @Test
  void theVectorsItHoldsFollowEveryChangeAndSearchLikeAFullScan() throws Exception {
    Catalog catalog = erp();
    SchemaModel start = catalog.model();
    InMemoryChunkStore store = new InMemoryChunkStore();
    write(store, chunks(start));
    List<Chunk> first = chunks(start).values().stream().flatMap(List::stream).toList();
    SchemaIndex index = new SchemaIndex(start, first, SETTINGS).withVectors(vectorsOf(first));
    assertThat(index.version()).isZero();
    SchemaModel state = start;

    Table employees = catalog.tables.get("hr.employees");
    List<Column> cols = new ArrayList<>(employees.columns());
    cols.add(col("salary", "numeric", "yearly gross salary"));
    catalog.tables.put("hr.employees", new Table("hr.employees", employees.comment(), cols, employees.module()));
    index = apply(index, state, state = catalog.model(), store);
    catalog.tables.remove("inventory.warehouses");
    catalog.fks.remove("inventory_stock_levels_warehouse_id_fkey");
    index = apply(index, state, state = catalog.model(), store);

    assertThat(index.vectors()).isPresent();
    Map<String, List<Chunk>> stored = chunks(state);
    Embedder embedder = new WordHashEmbedder();
    DenseSearch scan = dense(stored.values(), embedder);
    for (String q : QUESTIONS) {
      float[] v = embedder.embed(q);
      for (ChunkKind kind : List.of(ChunkKind.OVERVIEW, ChunkKind.COLUMN)) {
        List<DenseSearch.Hit> held = index.denseOr(scan).nearest(kind, v, 15);
        List<DenseSearch.Hit> full = scan.nearest(kind, v, 15);
        assertThat(held).as(q + " / " + kind).hasSameSizeAs(full);
        for (int i = 0; i < full.size(); i++) {
          assertThat(held.get(i).similarity()).as(q).isCloseTo(full.get(i).similarity(), org.assertj.core.data.Offset.offset(1e-5));
        }
      }
    }
    assertThat(index.denseOr(scan).nearest(ChunkKind.COLUMN, embedder.embed("yearly gross salary"), 1))
        .extracting(DenseSearch.Hit::table, h -> h.subject().orElseThrow()).containsExactly(org.assertj.core.groups.Tuple.tuple("hr.employees", "salary"));
    assertThat(index.denseOr(scan).nearest(ChunkKind.OVERVIEW, embedder.embed("storage sites"), 20)).extracting(DenseSearch.Hit::table)
        .doesNotContain("inventory.warehouses");
  }

  @Test
  void aChangeWithoutTheVectorsOfItsNewTextsLeavesDenseSearchToTheStore() throws Exception {
    Catalog catalog = erp();
    SchemaModel before = catalog.model();
    List<Chunk> first = chunks(before).values().stream().flatMap(List::stream).toList();
    SchemaIndex index = new SchemaIndex(before, first, SETTINGS).withVectors(vectorsOf(first));
    Table products = catalog.tables.get("inventory.products");
    List<Column> cols = new ArrayList<>(products.columns());
    cols.add(col("discontinued", "boolean", "no longer sold"));
    catalog.tables.put(products.name(), new Table(products.name(), products.comment(), cols, products.module()));
    SchemaModel after = catalog.model();
    SchemaIndex updated = index.withTables(List.of(new SchemaIndex.TableChange(products.name(), after.table(products.name()),
        after.edges(products.name()), chunks(after).get(products.name()))));
    assertThat(updated.vectors()).isEmpty();
    DenseSearch store = (kind, q, limit) -> List.of();
    assertThat(updated.denseOr(store)).isSameAs(store);
    assertThat(index.denseOr(store)).isSameAs(index.vectors().orElseThrow());
  }

  private static Set<String> hashes(List<Chunk> chunks) {
    return chunks == null ? Set.of() : chunks.stream().map(Chunk::contentHash).collect(Collectors.toSet());
  }

  /** Words hashed into a few dimensions: texts that share stems are close. Deterministic, no model. */
  private static final class WordHashEmbedder implements Embedder {
    static final int DIMENSION = 96;

    @Override
    public String modelId() {
      return "word-hash-96";
    }

    @Override
    public int dimension() {
      return DIMENSION;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      List<float[]> out = new ArrayList<>();
      for (String t : texts) {
        float[] v = new float[DIMENSION];
        for (String s : SchemaAnalyzer.stems(t)) {
          v[Math.floorMod(s.hashCode(), DIMENSION)] += 1;
        }
        double norm = 0;
        for (float x : v) {
          norm += x * x;
        }
        for (int i = 0; i < v.length; i++) {
          v[i] = norm == 0 ? 0 : (float) (v[i] / Math.sqrt(norm));
        }
        out.add(v);
      }
      return out;
    }
  }

  /** Exact cosine search over the stored chunks of the final state: what pgvector would return. */
  private static DenseSearch dense(Collection<List<Chunk>> stored, Embedder embedder) {
    List<Chunk> all = stored.stream().flatMap(List::stream).toList();
    List<float[]> vectors = embedder.embedAll(all.stream().map(Chunk::embedText).toList());
    return (kind, q, limit) -> {
      List<DenseSearch.Hit> hits = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        Chunk c = all.get(i);
        if (c.kind() == kind) {
          double dot = 0;
          for (int j = 0; j < q.length; j++) {
            dot += q[j] * vectors.get(i)[j];
          }
          hits.add(new DenseSearch.Hit(c.table(), c.subject(), dot));
        }
      }
      hits.sort(Comparator.comparingDouble(DenseSearch.Hit::similarity).reversed()
          .thenComparing(DenseSearch.Hit::table).thenComparing(h -> h.subject().orElse("")));
      return hits.subList(0, Math.min(limit, hits.size()));
    };
  }

  @Test
  void updatedTableByTableItAnswersLikeAnIndexBuiltFromScratch() {
    Catalog catalog = erp();
    SchemaModel start = catalog.model();
    InMemoryChunkStore store = new InMemoryChunkStore();
    write(store, chunks(start));
    SchemaIndex index = new SchemaIndex(start, chunks(start).values().stream().flatMap(List::stream).toList(), SETTINGS);
    SchemaModel state = start;

    // 1. A table is added, in a module of its own, with a foreign key to an existing table.
    catalog.tables.put("finance.invoices", table("finance.invoices", "Bills sent to customers (invoices)", pk("invoice_id"),
        ref("order_id", "sales.orders.order_id"), col("amount", "numeric", "invoice total"), col("due_date", "date", "payment due"),
        col("payment_status", "text", "paid, open or overdue")));
    catalog.fks.put("finance_invoices_order_id_fkey", fk("finance.invoices", "order_id", "sales.orders", "order_id"));
    index = apply(index, state, state = catalog.model(), store);

    // 2. A column changes: employees gain a salary, the hire date's comment changes, and a second table gets a hire date.
    Table employees = catalog.tables.get("hr.employees");
    List<Column> cols = new ArrayList<>(employees.columns());
    cols.set(4, col("hire_date", "date", "date the contract started"));
    cols.add(col("salary", "numeric", "yearly gross salary"));
    catalog.tables.put("hr.employees", new Table("hr.employees", employees.comment(), cols, employees.module()));
    Table agents = catalog.tables.get("support.agents");
    List<Column> agentCols = new ArrayList<>(agents.columns());
    agentCols.add(col("hire_date", "date", null));
    catalog.tables.put("support.agents", new Table("support.agents", agents.comment(), agentCols, agents.module()));
    index = apply(index, state, state = catalog.model(), store);

    // 3. A table is dropped (its foreign keys with it).
    catalog.tables.remove("inventory.warehouses");
    catalog.fks.remove("inventory_stock_levels_warehouse_id_fkey");
    Table stock = catalog.tables.get("inventory.stock_levels");
    catalog.tables.put("inventory.stock_levels", new Table(stock.name(), stock.comment(), List.of(stock.columns().get(0),
        col("warehouse_id", "bigint", null), stock.columns().get(2)), stock.module()));
    index = apply(index, state, state = catalog.model(), store);

    // 4. A foreign key is added between existing tables.
    Table openings = catalog.tables.get("hr.job_openings");
    catalog.tables.put("hr.job_openings", new Table(openings.name(), openings.comment(), List.of(openings.columns().get(0),
        openings.columns().get(1), ref("department_id", "hr.departments.department_id")), openings.module()));
    catalog.fks.put("hr_job_openings_department_id_fkey", fk("hr.job_openings", "department_id", "hr.departments", "department_id"));
    index = apply(index, state, state = catalog.model(), store);

    // 5. A new module's only table goes away again, and a table moves its comment.
    catalog.tables.remove("finance.invoices");
    catalog.fks.remove("finance_invoices_order_id_fkey");
    Table customers = catalog.tables.get("sales.customers");
    catalog.tables.put("sales.customers", new Table(customers.name(), Optional.of("Buyers (clients, accounts)"), customers.columns(),
        customers.module()));
    SchemaModel mid = catalog.model();
    index = apply(index, state, state = mid, store);
    // ... and comes back, so the module index is used again.
    catalog.tables.put("finance.invoices", table("finance.invoices", "Bills sent to customers (invoices)", pk("invoice_id"),
        ref("order_id", "sales.orders.order_id"), col("amount", "numeric", "invoice total"), col("due_date", "date", "payment due"),
        col("payment_status", "text", "paid, open or overdue")));
    catalog.fks.put("finance_invoices_order_id_fkey", fk("finance.invoices", "order_id", "sales.orders", "order_id"));
    index = apply(index, state, state = catalog.model(), store);

    SchemaModel last = catalog.model();
    Map<String, List<Chunk>> stored = chunks(last);
    assertThat(store.all()).hasSize((int) stored.values().stream().mapToLong(List::size).sum());
    SchemaIndex scratch = new SchemaIndex(last, stored.values().stream().flatMap(List::stream).toList(), SETTINGS);
    assertThat(index.version()).isGreaterThan(5);

    // The same model, statistics and per-table data.
    assertThat(index.model().tables()).containsExactlyInAnyOrderElementsOf(scratch.model().tables());
    assertThat(new HashSet<>(index.model().foreignKeys())).isEqualTo(new HashSet<>(scratch.model().foreignKeys()));
    for (Table t : last.tables()) {
      assertThat(new HashSet<>(index.model().edges(t.name()))).as(t.name()).isEqualTo(new HashSet<>(scratch.model().edges(t.name())));
    }
    assertThat(index.ddl).isEqualTo(scratch.ddl);
    assertThat(index.ddlTokens).isEqualTo(scratch.ddlTokens);
    assertThat(index.schemaTokens).isEqualTo(scratch.schemaTokens);
    assertThat(index.columnDf).isEqualTo(scratch.columnDf);
    assertThat(index.moduleOf).isEqualTo(scratch.moduleOf);
    assertThat(index.kinds).isEqualTo(scratch.kinds);
    assertThat(index.modules).isPresent();
    for (String c : List.of("hire_date", "salary", "status", "name", "department_id", "warehouse_id")) {
      assertThat(index.specificity(c)).as(c).isEqualTo(scratch.specificity(c));
    }

    // The same lexical scores, to the last bit, and the same retrieval.
    Embedder embedder = new WordHashEmbedder();
    DenseSearch dense = dense(stored.values(), embedder);
    SchemaRetriever incremental = new SchemaRetriever(index, dense, embedder, SETTINGS);
    SchemaRetriever fromScratch = new SchemaRetriever(scratch, dense, embedder, SETTINGS);
    for (String q : QUESTIONS) {
      for (ChunkKind kind : List.of(ChunkKind.OVERVIEW, ChunkKind.COLUMN)) {
        assertThat(index.lexical.search(q, kind, 200)).as(q + " / " + kind).isEqualTo(scratch.lexical.search(q, kind, 200));
      }
      assertThat(index.modules.get().search(q, LexicalIndex.MODULE, 50)).as(q).isEqualTo(scratch.modules.get().search(q, LexicalIndex.MODULE, 50));
      SchemaRetriever.Result a = incremental.retrieveWithEvidence(q, SETTINGS);
      SchemaRetriever.Result b = fromScratch.retrieveWithEvidence(q, SETTINGS);
      assertThat(a.packet().ranking()).as(q).isEqualTo(b.packet().ranking());
      assertThat(a.packet().tables()).as(q).isEqualTo(b.packet().tables());
      assertThat(new HashSet<>(a.packet().fkEdges())).as(q).isEqualTo(new HashSet<>(b.packet().fkEdges()));
      assertThat(a.moduleScores()).as(q).isEqualTo(b.moduleScores());
    }
    // What the last steps changed is what a question finds.
    assertThat(incremental.retrieve("invoice due date and payment status").tableNames()).contains("finance.invoices");
    assertThat(index.model().table("inventory.warehouses")).isEmpty();
  }

  @Test
  void aQuestionHoldingAnOlderVersionSeesNoneOfTheChange() {
    Catalog catalog = erp();
    SchemaModel before = catalog.model();
    SchemaIndex first = new SchemaIndex(before, chunks(before).values().stream().flatMap(List::stream).toList(), SETTINGS);
    List<LexicalIndex.Hit> hits = first.lexical.search("units in stock per warehouse", ChunkKind.COLUMN, 50);

    catalog.tables.remove("inventory.stock_levels");
    catalog.fks.remove("inventory_stock_levels_product_id_fkey");
    catalog.fks.remove("inventory_stock_levels_warehouse_id_fkey");
    SchemaIndex second = apply(first, before, catalog.model(), new InMemoryChunkStore());

    assertThat(first.lexical.search("units in stock per warehouse", ChunkKind.COLUMN, 50)).isEqualTo(hits);
    assertThat(first.model().table("inventory.stock_levels")).isPresent();
    assertThat(first.ddl).containsKey("inventory.stock_levels");
    assertThat(second.lexical.search("units in stock per warehouse", ChunkKind.COLUMN, 50))
        .noneMatch(h -> h.table().equals("inventory.stock_levels"));
    assertThat(second.model().table("inventory.stock_levels")).isEmpty();
  }

  @Test
  void aNewVersionSearchesTheNameWordsOfTheTablesAddedSinceTheLastQuestion() {
    Catalog catalog = erp();
    SchemaModel before = catalog.model();
    SchemaIndex first = new SchemaIndex(before, chunks(before).values().stream().flatMap(List::stream).toList(), SETTINGS);
    NameWordsTest.SynonymModel model = new NameWordsTest.SynonymModel();
    assertThat(first.nameWordsNear("How many vocalists are there?", model)).doesNotContainKey("singer");

    catalog.tables.put("hr.singer", table("hr.singer", "Performers of the company choir", pk("singer_id"), col("voice", "text", null)));
    SchemaModel middle = catalog.model();
    SchemaIndex second = apply(first, before, middle, new InMemoryChunkStore());
    // A second change before any question: the third version gathers the words of both.
    catalog.tables.put("hr.rehearsals", table("hr.rehearsals", "Choir practice", pk("rehearsal_id"), col("held_on", "date", null)));
    SchemaIndex third = apply(second, middle, catalog.model(), new InMemoryChunkStore());
    assertThat(third).isNotSameAs(second);
    assertThat(third.nameWordsNear("How many vocalists are there?", model)).containsKey("singer");
    assertThat(first.nameWordsNear("How many vocalists are there?", model)).as("the older version as it was").doesNotContainKey("singer");
  }

  @Test
  void preparedNameWordsLeaveTheFirstUnknownWordOnlyItsOwnEmbedding() {
    SchemaModel model = erp().model();
    SchemaIndex index = new SchemaIndex(model, chunks(model).values().stream().flatMap(List::stream).toList(), SETTINGS);
    NameWordsTest.SynonymModel embedder = new NameWordsTest.SynonymModel();
    assertThat(index.prepareNameWords(embedder)).isPositive();
    int prepared = embedder.texts.get();
    assertThat(prepared).as("the name words embedded up front").isPositive();
    index.nameWordsNear("How many vocalists are there?", embedder);
    assertThat(embedder.texts.get() - prepared).as("the question's one unknown word").isEqualTo(1);
    assertThat(index.prepareNameWords(embedder)).isPositive();
    assertThat(embedder.texts.get() - prepared).as("a second preparation embeds nothing").isEqualTo(1);
  }

  @Test
  void aTablesOwnWordsAreReadAgainWhenItChangesAndKeptWhenAnotherDoes() {
    Catalog catalog = erp();
    SchemaModel before = catalog.model();
    SchemaIndex first = new SchemaIndex(before, chunks(before).values().stream().flatMap(List::stream).toList(), SETTINGS);
    // The module's prefix is not a word of the table; column comments are not either.
    assertThat(first.wordsOf("hr.employees")).contains("employe", "first", "hire", "date", "compani").doesNotContain("hr", "work");
    Set<String> warehouses = first.wordsOf("inventory.warehouses");

    catalog.tables.put("hr.departments", table("hr.departments", "Teams and cost centres", pk("department_id"), col("name", "text", null)));
    SchemaIndex second = apply(first, before, catalog.model(), new InMemoryChunkStore());

    assertThat(first.wordsOf("hr.departments")).contains("unit").doesNotContain("team");
    assertThat(second.wordsOf("hr.departments")).contains("team", "cost").doesNotContain("unit");
    assertThat(second.wordsOf("inventory.warehouses")).isSameAs(warehouses);
    assertThat(second.wordsOf("no.such_table")).isEmpty();
  }

  @Test
  void onlyTheNewestVersionCanBeChanged() {
    SchemaModel model = erp().model();
    SchemaIndex first = new SchemaIndex(model, chunks(model).values().stream().flatMap(List::stream).toList(), SETTINGS);
    Table t = model.table("hr.departments").orElseThrow();
    SchemaIndex.TableChange change = new SchemaIndex.TableChange(t.name(), Optional.of(t), model.edges(t.name()),
        chunks(model).get(t.name()));
    first.withTables(List.of(change));
    assertThatThrownBy(() -> first.withTables(List.of(change))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("newest version");
  }

  @Test
  void aPacketsDdlShowsTheValuesItsColumnChunksCarryInEveryVersionAndView() {
    Catalog catalog = erp();
    SchemaModel before = catalog.model();
    SchemaIndex index = new SchemaIndex(before, chunks(before).values().stream().flatMap(List::stream).toList(), SETTINGS);
    Table products = catalog.tables.get("inventory.products");
    List<Column> cols = new ArrayList<>(products.columns());
    cols.add(col("category", "text", null).withValues(List.of("Networking", "Software")));
    catalog.tables.put(products.name(), new Table(products.name(), products.comment(), cols, products.module()));
    SchemaModel after = catalog.model();
    index = apply(index, before, after, new InMemoryChunkStore());

    assertThat(index.ddl.get("inventory.products")).contains("category text [values: Networking, Software]");
    // The query side reads its model from the catalog without values: the DDL takes them from the stored chunks.
    List<Table> plain = after.tables().stream().map(t -> new Table(t.name(), t.comment(),
        t.columns().stream().map(c -> c.withValues(List.of())).toList(), t.module())).toList();
    SchemaIndex scratch = new SchemaIndex(new SchemaModel("erp", plain, after.foreignKeys()),
        chunks(after).values().stream().flatMap(List::stream).toList(), SETTINGS);
    assertThat(scratch.ddl).isEqualTo(index.ddl);
    Map<String, Set<String>> readable = Map.of("inventory.products", Set.of("product_id", "name"));
    assertThat(index.restrictedTo(new SchemaView("clerk", readable)).ddl.get("inventory.products")).doesNotContain("category", "Networking");
  }

  @Test
  void aValueOnlyOneTablesDataHoldsNamesItInEveryVersion() {
    Catalog catalog = erp();
    Table warehouses = catalog.tables.get("inventory.warehouses");
    catalog.tables.put(warehouses.name(), new Table(warehouses.name(), warehouses.comment(), warehouses.columns().stream()
        .map(c -> c.name().equals("city") ? c.withValues(List.of("Porto", "Lyon")) : c).toList(), warehouses.module()));
    SchemaModel before = catalog.model();
    SchemaIndex index = new SchemaIndex(before, chunks(before).values().stream().flatMap(List::stream).toList(), SETTINGS);
    List<String> all = before.tables().stream().map(Table::name).toList();
    List<String> question = SchemaAnalyzer.stems("units on hand in Porto");
    assertThat(index.named.namedByValue(question, all, index.lexical::heldElsewhere)).containsExactly("inventory.warehouses");

    // Customers now hold the city too: it names neither table, in the updated index as in one built from scratch.
    Table customers = catalog.tables.get("sales.customers");
    List<Column> cols = new ArrayList<>(customers.columns());
    cols.add(col("city", "text", null).withValues(List.of("Porto")));
    catalog.tables.put(customers.name(), new Table(customers.name(), customers.comment(), cols, customers.module()));
    SchemaModel after = catalog.model();
    SchemaIndex updated = apply(index, before, after, new InMemoryChunkStore());
    SchemaIndex scratch = new SchemaIndex(after, chunks(after).values().stream().flatMap(List::stream).toList(), SETTINGS);
    assertThat(updated.named.namedByValue(question, all, updated.lexical::heldElsewhere)).isEmpty();
    assertThat(scratch.named.namedByValue(question, all, scratch.lexical::heldElsewhere)).isEmpty();
    // "Lyon" is still the warehouses' own.
    assertThat(updated.named.namedByValue(SchemaAnalyzer.stems("stock in Lyon"), all, updated.lexical::heldElsewhere))
        .containsExactly("inventory.warehouses");
  }

  @Test
  void aRolesViewOfAnUpdatedIndexIsTheViewOfTheFinalState() {
    Catalog catalog = erp();
    SchemaModel before = catalog.model();
    SchemaIndex index = new SchemaIndex(before, chunks(before).values().stream().flatMap(List::stream).toList(), SETTINGS);
    Table products = catalog.tables.get("inventory.products");
    List<Column> cols = new ArrayList<>(products.columns());
    cols.add(col("discontinued", "boolean", "no longer sold"));
    catalog.tables.put(products.name(), new Table(products.name(), products.comment(), cols, products.module()));
    SchemaModel after = catalog.model();
    index = apply(index, before, after, new InMemoryChunkStore());
    SchemaIndex scratch = new SchemaIndex(after, chunks(after).values().stream().flatMap(List::stream).toList(), SETTINGS);

    Map<String, Set<String>> readable = new HashMap<>();
    for (Table t : after.tables()) {
      if (t.module().orElseThrow().equals("inventory") || t.module().orElseThrow().equals("sales")) {
        readable.put(t.name(), t.columns().stream().map(Column::name).collect(Collectors.toSet()));
      }
    }
    SchemaView view = new SchemaView("sales_analyst", readable);
    SchemaIndex a = index.restrictedTo(view);
    SchemaIndex b = scratch.restrictedTo(view);
    assertThat(a.ddl).isEqualTo(b.ddl).containsKey("inventory.products").doesNotContainKey("hr.employees");
    assertThat(a.ddl.get("inventory.products")).contains("discontinued");
    for (String q : List.of("products no longer sold", "orders per customer", "salary of employees")) {
      assertThat(a.lexical.search(q, ChunkKind.COLUMN, 50)).as(q).isEqualTo(b.lexical.search(q, ChunkKind.COLUMN, 50));
    }
  }
}
