package dev.schemarag.core.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class AcronymsTest {

  private static Table table(String name, String... columns) {
    return new Table(name, Optional.empty(), Arrays.stream(columns).map(c -> Column.of(c, "int")).toList(), Optional.empty());
  }

  private static final SchemaModel SCHEMA = new SchemaModel("erp", List.of(
      table("procurement.purchase_orders", "purchase_order_id", "ordered_on", "total_amount"),
      table("inventory.products", "product_id", "stockKeepingUnit", "name"),
      table("media.tv_channels", "tv_channel_id", "name")), List.of());

  /** The words the schema's text has: its identifiers' words. */
  private static final Set<String> SCHEMA_WORDS = Set.of("purchase", "orders", "order", "id", "ordered", "on", "total", "amount",
      "inventory", "products", "product", "stock", "keeping", "unit", "name", "tv", "channels", "channel");
  private static final Predicate<String> KNOWN = SCHEMA_WORDS::contains;

  @Test
  void anAcronymOfATableNameIsReadWithItsWords() {
    assertThat(Acronyms.expanded("how many POs did we place each month", SCHEMA, KNOWN))
        .isEqualTo("how many POs (purchase orders) did we place each month");
    assertThat(Acronyms.expanded("the PO's total", SCHEMA, KNOWN)).isEqualTo("the PO's (purchase orders) total");
  }

  @Test
  void anAcronymOfACamelCaseColumnIsReadToo() {
    assertThat(Acronyms.expanded("products without a SKU", SCHEMA, KNOWN))
        .isEqualTo("products without a SKU (stock keeping unit)");
  }

  @Test
  void anAcronymTheSchemaUsesBesideTheNameItAbbreviatesIsReadAsThatName() {
    // procurement.purchase_orders calls its key po_id: "po" is a word of the schema, and this table's.
    SchemaModel model = new SchemaModel("erp", List.of(
        table("procurement.purchase_orders", "po_id", "ordered_on"),
        table("procurement.purchase_order_lines", "po_line_id", "po_id"),
        table("sales.price_overrides", "override_id")), List.of());
    Predicate<String> known = Set.of("po", "id", "purchase", "orders", "order", "line", "lines", "ordered", "on", "price",
        "overrides", "override")::contains;
    assertThat(Acronyms.expanded("how many POs did we place each month", model, known))
        .isEqualTo("how many POs (purchase orders) did we place each month");
  }

  @Test
  void capitalsTheSchemaKnowsAsAWordAreLeftAlone() {
    // "TV" is a word of the schema (tv_channels), not an abbreviation of something else.
    assertThat(Acronyms.expanded("Which TV channels show news?", SCHEMA, KNOWN)).isEqualTo("Which TV channels show news?");
  }

  @Test
  void lowerCaseWordsCodesAndUnmatchedCapitalsAreLeftAlone() {
    // "po" in lower case is a word, not an acronym; TR000 is a code; "XYZ" abbreviates no name of the schema.
    String question = "po box of order TR000 from XYZ";
    assertThat(Acronyms.expanded(question, SCHEMA, KNOWN)).isSameAs(question);
  }

  @Test
  void capitalsAfterACapitalisedWordAreAName() {
    assertThat(Acronyms.expanded("what did Globex PO buy", SCHEMA, KNOWN)).isEqualTo("what did Globex PO buy");
    assertThat(Acronyms.expanded("heroes of PO Comics", SCHEMA, KNOWN)).isEqualTo("heroes of PO Comics");
    // The question's first word is capitalised as any sentence's is.
    assertThat(Acronyms.expanded("Open POs by month", SCHEMA, KNOWN)).isEqualTo("Open POs (purchase orders) by month");
    assertThat(Acronyms.expanded("POs by month", SCHEMA, KNOWN)).isEqualTo("POs (purchase orders) by month");
  }

  @Test
  void anAcronymWithTooManyReadingsSaysNothing() {
    SchemaModel many = new SchemaModel("x", List.of(
        table("a.pay_orders", "paid_on", "part_owner", "post_office")), List.of());
    assertThat(Acronyms.readings("po", many, false)).hasSize(4);
    assertThat(Acronyms.expanded("count POs", many, w -> false)).isEqualTo("count POs");
  }

  @Test
  void aNewIndexVersionReadsAcronymsAsItsSchemaHasThem() {
    SchemaIndex index = new SchemaIndex(SCHEMA, dev.schemarag.core.chunk.Chunker.chunkAll(SCHEMA, java.util.Map.of()), RetrievalSettings.DEFAULT);
    assertThat(index.acronymReadings("po", false)).containsExactly("purchase orders");
    assertThat(index.acronymReadings("sku", false)).containsExactly("stock keeping unit");

    // a table whose name is another reading of "po" is added; nothing of it reads "sku"
    Table postOffices = table("logistics.post_offices", "post_office_id", "city");
    SchemaModel now = SCHEMA.withTables(java.util.Map.of(postOffices.name(), Optional.of(postOffices)), List.of());
    SchemaIndex next = index.withTables(List.of(new SchemaIndex.TableChange(postOffices.name(), Optional.of(postOffices), List.of(),
        dev.schemarag.core.chunk.Chunker.chunk(now, Optional.of(postOffices), Optional.empty()))));

    assertThat(next.acronymReadings("po", false)).containsExactlyElementsOf(Acronyms.readings("po", now, false))
        .contains("purchase orders", "post offices");
    assertThat(next.acronymReadings("sku", false)).containsExactly("stock keeping unit");
    assertThat(index.acronymReadings("po", false)).as("the version before keeps its own").containsExactly("purchase orders");
  }

  @Test
  void anAcronymReadsAsAValueOfTheDataAndAgainWhenTheDataChanges() {
    Table titles = new Table("hr.job_titles", Optional.empty(), List.of(Column.of("job_title_id", "int"),
        Column.of("title", "text").withValues(List.of("Chief Executive Officer", "Software Engineer"))), Optional.empty());
    SchemaModel schema = SCHEMA.withTables(java.util.Map.of(titles.name(), Optional.of(titles)), List.of());
    SchemaIndex index = new SchemaIndex(schema, dev.schemarag.core.chunk.Chunker.chunkAll(schema, java.util.Map.of()), RetrievalSettings.DEFAULT);
    assertThat(index.acronymReadings("ceo", false)).containsExactly("chief executive officer");
    assertThat(index.acronymReadings("po", false)).containsExactly("purchase orders");
    assertThat(Acronyms.expanded("Who reports to the CEO?", KNOWN, index::acronymReadings))
        .isEqualTo("Who reports to the CEO (chief executive officer)?");
    // Capitals the schema's text has as a word are read as its names only, never as values.
    assertThat(index.acronymReadings("ceo", true)).isEmpty();

    Table retitled = new Table(titles.name(), Optional.empty(), List.of(Column.of("job_title_id", "int"),
        Column.of("title", "text").withValues(List.of("Chief Financial Officer"))), Optional.empty());
    SchemaModel now = schema.withTables(java.util.Map.of(retitled.name(), Optional.of(retitled)), List.of());
    SchemaIndex next = index.withTables(List.of(new SchemaIndex.TableChange(retitled.name(), Optional.of(retitled), List.of(),
        dev.schemarag.core.chunk.Chunker.chunk(now, Optional.of(retitled), Optional.empty()))));
    assertThat(next.acronymReadings("ceo", false)).isEmpty();
    assertThat(next.acronymReadings("cfo", false)).containsExactly("chief financial officer");
    assertThat(next.acronymReadings("po", false)).containsExactly("purchase orders");
  }
}
