package dev.schemarag.cli;

import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Enterprise-like distractor modules for the scale benchmark: ERP areas (hr, sales, inventory,
 * procurement, finance, logistics, manufacturing, crm, projects, assets), then the same areas again
 * for regional subsidiaries ({@code sales_emea}, {@code hr_apac}, ...) until the wanted number of
 * tables is reached. Each module is one PostgreSQL schema; its tables are entities, their lookup
 * types and their dependent tables (lines, status history, approvals, attachments, notes), with a
 * primary key, foreign keys to earlier tables of the module and to a few hub tables of other
 * modules (employees, customers, suppliers, products, cost centres), and a comment on every table
 * and column. The same seed and size always give the same schema. No table is meant to answer a
 * benchmark question: they are there to be passed over.
 */
final class EnterpriseSchemaGenerator {

  /** An entity of an area: singular snake_case name, what it is, and columns only it has. */
  private record Entity(String name, String what, List<String[]> columns) {}

  /** A business area with its entities, most central first. */
  private record Area(String name, String title, List<Entity> entities) {}

  /** A table another module may point at: area, entity, and the column name pointing at it reads as. */
  private record Hub(String area, String entity, String[] roles) {}

  private static final String[][] REGIONS = {
      {"emea", "EMEA"}, {"apac", "Asia-Pacific"}, {"amer", "North America"}, {"latam", "Latin America"}, {"nordics", "Nordics"},
      {"dach", "Germany, Austria and Switzerland"}, {"uk", "United Kingdom"}, {"iberia", "Spain and Portugal"}, {"benelux", "Benelux"},
      {"anz", "Australia and New Zealand"}, {"japan", "Japan"}, {"india", "India"}, {"china", "China"}, {"mena", "Middle East"},
      {"africa", "Africa"}, {"canada", "Canada"}, {"brazil", "Brazil"}, {"mexico", "Mexico"}, {"france", "France"}, {"italy", "Italy"},
      {"poland", "Poland"}, {"turkey", "Turkey"}, {"korea", "Korea"}, {"sea", "Southeast Asia"}};

  private static final List<Hub> HUBS = List.of(
      new Hub("hr", "employee", new String[] {"owner_employee_id", "responsible_employee_id", "approved_by_employee_id"}),
      new Hub("sales", "customer", new String[] {"customer_id", "bill_to_customer_id"}),
      new Hub("procurement", "supplier", new String[] {"supplier_id", "preferred_supplier_id"}),
      new Hub("inventory", "product", new String[] {"product_id"}),
      new Hub("finance", "cost_center", new String[] {"cost_center_id", "charged_cost_center_id"}));

  /** Columns an entity may have besides its own (name, type, comment with %s for the entity). */
  private static final String[][] COMMON = {
      {"code", "varchar(20)", "Short code of the %s, unique within the company"},
      {"description", "text", "Free-text description of the %s"},
      {"status", "varchar(20)", "Lifecycle status of the %s (draft, active, on_hold, closed)"},
      {"valid_from", "date", "First day the %s applies"},
      {"valid_to", "date", "Last day the %s applies; empty while open-ended"},
      {"currency_code", "char(3)", "ISO 4217 currency the %s's amounts are in"},
      {"external_reference", "varchar(40)", "Reference of the %s in the legacy system it was migrated from"},
      {"priority", "smallint", "Priority of the %s, 1 (highest) to 5"},
      {"is_active", "boolean", "Whether the %s can still be used on new documents"},
      {"notes", "text", "Internal remarks on the %s"}};

  private static final List<Area> AREAS = List.of(
      area("hr", "Human resources",
          e("employee", "person employed by the company", c("first_name", "varchar(60)", "Given name of the employee"),
              c("last_name", "varchar(60)", "Family name of the employee"), c("work_email", "varchar(120)", "Company e-mail address"),
              c("hire_date", "date", "Date the employee joined"), c("termination_date", "date", "Last working day, if the employee left")),
          e("department", "organisational unit employees report to", c("department_name", "varchar(80)", "Name of the department")),
          e("position", "job position in the organisation chart", c("title", "varchar(80)", "Job title of the position"),
              c("fte", "numeric(4,2)", "Full-time equivalents budgeted for the position")),
          e("job_grade", "pay grade with its salary band", c("min_salary", "numeric(12,2)", "Lowest annual salary of the grade"),
              c("max_salary", "numeric(12,2)", "Highest annual salary of the grade")),
          e("leave_request", "request for paid or unpaid leave", c("first_day", "date", "First day of leave"),
              c("last_day", "date", "Last day of leave"), c("leave_kind", "varchar(20)", "Annual, sick, parental or unpaid leave")),
          e("payroll_run", "monthly payroll calculation", c("period_month", "date", "Month the payroll is for"),
              c("gross_total", "numeric(14,2)", "Gross pay of all employees in the run")),
          e("payslip", "pay statement of one employee for one payroll run", c("gross_pay", "numeric(12,2)", "Gross pay"),
              c("net_pay", "numeric(12,2)", "Net pay after deductions")),
          e("benefit_plan", "health, pension or other benefit offered", c("employer_share", "numeric(5,2)", "Percent the employer pays")),
          e("performance_review", "yearly appraisal of an employee", c("review_year", "smallint", "Year reviewed"),
              c("rating", "smallint", "Overall rating from 1 to 5")),
          e("training_course", "internal or external training", c("duration_hours", "numeric(6,1)", "Length of the course in hours")),
          e("timesheet", "weekly record of hours worked", c("week_start", "date", "Monday of the week"),
              c("hours_worked", "numeric(5,2)", "Hours worked in the week")),
          e("job_requisition", "approved opening to be filled", c("openings", "smallint", "Number of people to hire")),
          e("job_applicant", "candidate who applied to a requisition", c("applied_on", "date", "Date of the application"))),
      area("sales", "Sales",
          e("customer", "company or person that buys from us", c("company_name", "varchar(120)", "Registered name of the customer"),
              c("vat_number", "varchar(20)", "VAT identification number"), c("credit_limit", "numeric(14,2)", "Maximum open receivables allowed")),
          e("sales_territory", "geographic area a sales team covers", c("territory_name", "varchar(80)", "Name of the territory")),
          e("price_list", "list of selling prices for a market", c("list_name", "varchar(80)", "Name of the price list")),
          e("quotation", "offer sent to a customer", c("quoted_on", "date", "Date the quotation was sent"),
              c("expires_on", "date", "Date the offer lapses")),
          e("sales_order", "order a customer placed", c("order_date", "date", "Date the order was taken"),
              c("total_amount", "numeric(14,2)", "Order total before tax")),
          e("customer_invoice", "invoice issued to a customer", c("invoice_date", "date", "Date of the invoice"),
              c("due_date", "date", "Payment due date"), c("amount_due", "numeric(14,2)", "Amount still to be paid")),
          e("credit_note", "credit issued against an invoice", c("credit_amount", "numeric(14,2)", "Amount credited")),
          e("sales_return", "goods a customer sent back", c("return_reason", "varchar(80)", "Why the goods came back")),
          e("discount_rule", "rule that grants a discount", c("discount_percent", "numeric(5,2)", "Discount in percent")),
          e("sales_target", "revenue target of a sales rep for a quarter", c("target_amount", "numeric(14,2)", "Revenue target"),
              c("quarter_start", "date", "First day of the quarter")),
          e("commission", "commission earned on a sale", c("commission_amount", "numeric(12,2)", "Commission earned"))),
      area("inventory", "Inventory",
          e("product", "item we stock and sell", c("sku", "varchar(30)", "Stock keeping unit"),
              c("product_name", "varchar(120)", "Name of the product"), c("unit_weight_kg", "numeric(10,3)", "Weight of one unit in kg")),
          e("product_category", "grouping of products", c("category_name", "varchar(80)", "Name of the category")),
          e("warehouse", "site where stock is kept", c("warehouse_name", "varchar(80)", "Name of the warehouse"),
              c("city", "varchar(60)", "City of the warehouse")),
          e("storage_bin", "shelf location inside a warehouse", c("aisle", "varchar(10)", "Aisle label"),
              c("capacity_units", "integer", "Units the bin can hold")),
          e("stock_level", "quantity on hand of a product in a bin", c("quantity_on_hand", "numeric(12,3)", "Units on hand"),
              c("quantity_reserved", "numeric(12,3)", "Units reserved for orders")),
          e("stock_movement", "receipt, issue or transfer of stock", c("moved_at", "timestamp", "When the stock moved"),
              c("quantity", "numeric(12,3)", "Units moved; negative for issues")),
          e("stock_count", "physical count of a bin", c("counted_on", "date", "Date of the count"),
              c("counted_quantity", "numeric(12,3)", "Units found")),
          e("lot", "batch of a product made or received together", c("lot_number", "varchar(30)", "Lot number"),
              c("expiry_date", "date", "Best-before date of the lot")),
          e("reorder_rule", "minimum and maximum stock of a product", c("min_quantity", "numeric(12,3)", "Reorder when below"),
              c("max_quantity", "numeric(12,3)", "Fill up to")),
          e("transfer_order", "stock moved between warehouses", c("shipped_on", "date", "Date the transfer left"))),
      area("procurement", "Procurement",
          e("supplier", "company we buy from", c("supplier_name", "varchar(120)", "Registered name of the supplier"),
              c("payment_terms_days", "smallint", "Days until supplier invoices are due")),
          e("purchase_requisition", "internal request to buy something", c("needed_by", "date", "Date the goods are needed")),
          e("request_for_quotation", "price inquiry sent to suppliers", c("closing_date", "date", "Last day for offers")),
          e("supplier_quote", "offer a supplier made", c("quoted_amount", "numeric(14,2)", "Amount offered")),
          e("purchase_order", "order placed with a supplier", c("ordered_on", "date", "Date the order was sent"),
              c("order_total", "numeric(14,2)", "Total of the order")),
          e("goods_receipt", "delivery received from a supplier", c("received_on", "date", "Date the goods arrived")),
          e("supplier_invoice", "invoice a supplier sent us", c("invoice_number", "varchar(30)", "Supplier's invoice number"),
              c("invoice_total", "numeric(14,2)", "Amount invoiced")),
          e("supplier_contract", "framework agreement with a supplier", c("contract_value", "numeric(14,2)", "Committed spend")),
          e("supplier_rating", "periodic score of a supplier", c("score", "numeric(4,1)", "Score from 0 to 10")),
          e("approval_limit", "spend a buyer may approve alone", c("limit_amount", "numeric(14,2)", "Largest order approved alone"))),
      area("finance", "Finance",
          e("cost_center", "unit costs are booked to", c("cost_center_name", "varchar(80)", "Name of the cost centre")),
          e("gl_account", "general ledger account", c("account_number", "varchar(20)", "Account number in the chart of accounts"),
              c("account_type", "varchar(20)", "Asset, liability, equity, income or expense")),
          e("fiscal_period", "accounting month", c("period_start", "date", "First day of the period"),
              c("is_closed", "boolean", "Whether postings are locked")),
          e("journal_entry", "posting to the general ledger", c("posted_on", "date", "Posting date"),
              c("debit_amount", "numeric(14,2)", "Debit"), c("credit_amount", "numeric(14,2)", "Credit")),
          e("budget", "planned spend of a cost centre for a year", c("budget_year", "smallint", "Year budgeted"),
              c("budget_amount", "numeric(14,2)", "Amount budgeted")),
          e("bank_account", "company bank account", c("iban", "varchar(34)", "IBAN of the account")),
          e("bank_statement", "statement imported from the bank", c("statement_date", "date", "Date of the statement"),
              c("closing_balance", "numeric(14,2)", "Balance at the end")),
          e("payment", "money paid or received", c("paid_on", "date", "Value date"), c("payment_amount", "numeric(14,2)", "Amount paid")),
          e("tax_code", "VAT or sales tax rule", c("tax_rate", "numeric(5,2)", "Rate in percent")),
          e("exchange_rate", "daily currency conversion rate", c("rate_date", "date", "Date of the rate"),
              c("rate", "numeric(14,6)", "Units of the currency per euro")),
          e("expense_claim", "employee's claim for out-of-pocket costs", c("claimed_amount", "numeric(12,2)", "Amount claimed"))),
      area("logistics", "Logistics",
          e("carrier", "transport company", c("carrier_name", "varchar(80)", "Name of the carrier"),
              c("scac_code", "varchar(4)", "Standard carrier alpha code")),
          e("delivery_zone", "area with its own delivery lead time", c("lead_time_days", "smallint", "Days to deliver")),
          e("vehicle", "truck or van of the fleet", c("license_plate", "varchar(15)", "Registration plate"),
              c("payload_kg", "integer", "Maximum payload in kg")),
          e("driver", "person who drives a vehicle", c("license_number", "varchar(20)", "Driving licence number")),
          e("delivery_route", "planned sequence of stops", c("route_date", "date", "Day the route is driven"),
              c("distance_km", "numeric(8,1)", "Planned distance")),
          e("shipment", "goods sent to a customer", c("shipped_at", "timestamp", "When the goods left"),
              c("tracking_number", "varchar(40)", "Carrier's tracking number")),
          e("packing_slip", "list of what is in a parcel", c("parcel_count", "smallint", "Number of parcels")),
          e("freight_rate", "price of transport per zone and weight", c("price_per_kg", "numeric(10,4)", "Price per kg")),
          e("customs_declaration", "export or import declaration", c("declared_value", "numeric(14,2)", "Value declared to customs")),
          e("dock_appointment", "time slot at a loading dock", c("slot_start", "timestamp", "Start of the slot"))),
      area("manufacturing", "Manufacturing",
          e("work_center", "group of machines or people doing one operation", c("hourly_rate", "numeric(10,2)", "Cost per hour")),
          e("machine", "production machine", c("serial_number", "varchar(40)", "Manufacturer's serial number"),
              c("commissioned_on", "date", "Date the machine went into service")),
          e("bill_of_material", "components that make up a product", c("revision", "varchar(10)", "Revision of the BOM")),
          e("routing", "sequence of operations to make a product", c("setup_minutes", "integer", "Setup time")),
          e("production_order", "order to make a quantity of a product", c("planned_start", "timestamp", "Planned start"),
              c("planned_quantity", "numeric(12,3)", "Units to make")),
          e("operation", "step of a production order at a work center", c("run_minutes", "integer", "Minutes the step ran")),
          e("downtime_event", "time a machine stood still", c("started_at", "timestamp", "Start of the stop"),
              c("minutes_lost", "integer", "Minutes of production lost")),
          e("quality_inspection", "check of produced or received goods", c("inspected_at", "timestamp", "When inspected"),
              c("defects_found", "integer", "Defective units found")),
          e("scrap_record", "material thrown away", c("scrapped_quantity", "numeric(12,3)", "Units scrapped")),
          e("shift", "working shift of a plant", c("shift_start", "time without time zone", "Start time"),
              c("shift_end", "time without time zone", "End time"))),
      area("crm", "Customer relationship management",
          e("lead", "prospect not yet qualified", c("lead_source", "varchar(40)", "Where the lead came from"),
              c("contact_email", "varchar(120)", "E-mail of the prospect")),
          e("campaign", "marketing campaign", c("launch_date", "date", "Start of the campaign"),
              c("campaign_budget", "numeric(12,2)", "Money allotted")),
          e("opportunity", "qualified chance of a sale", c("expected_revenue", "numeric(14,2)", "Revenue if won"),
              c("win_probability", "numeric(5,2)", "Chance of winning in percent")),
          e("customer_segment", "group of customers targeted together", c("segment_name", "varchar(80)", "Name of the segment")),
          e("support_ticket", "customer request to the service desk", c("opened_at", "timestamp", "When the ticket was opened"),
              c("subject", "varchar(200)", "Subject line")),
          e("call_log", "phone call with a customer", c("call_started_at", "timestamp", "When the call began"),
              c("duration_seconds", "integer", "Length of the call")),
          e("meeting", "appointment with a customer", c("meeting_at", "timestamp", "Date and time of the meeting")),
          e("survey_response", "answer to a satisfaction survey", c("nps_score", "smallint", "Net promoter score 0 to 10")),
          e("loyalty_account", "points account of a customer", c("points_balance", "integer", "Points available"))),
      area("projects", "Projects",
          e("project", "piece of work with a budget and an end", c("project_name", "varchar(120)", "Name of the project"),
              c("planned_end", "date", "Planned end date")),
          e("project_phase", "stage of a project", c("phase_order", "smallint", "Order of the phase")),
          e("milestone", "checkpoint of a project", c("due_on", "date", "Date the milestone is due")),
          e("task", "unit of work in a project", c("estimate_hours", "numeric(6,1)", "Hours estimated")),
          e("time_entry", "hours booked on a task", c("work_date", "date", "Day worked"), c("hours", "numeric(5,2)", "Hours booked")),
          e("resource_assignment", "person planned on a project", c("allocation_percent", "numeric(5,2)", "Share of the person's time")),
          e("change_request", "requested change of project scope", c("cost_impact", "numeric(12,2)", "Extra cost if approved")),
          e("project_risk", "risk that may hurt a project", c("likelihood", "smallint", "Likelihood 1 to 5"),
              c("impact", "smallint", "Impact 1 to 5")),
          e("deliverable", "result a project hands over", c("accepted_on", "date", "Date the client accepted it"))),
      area("assets", "Fixed assets",
          e("fixed_asset", "equipment, building or vehicle the company owns", c("acquired_on", "date", "Purchase date"),
              c("acquisition_cost", "numeric(14,2)", "Purchase price")),
          e("asset_class", "kind of asset with its depreciation rule", c("useful_life_years", "smallint", "Years of depreciation")),
          e("asset_location", "place where assets stand", c("building", "varchar(40)", "Building"), c("room", "varchar(20)", "Room")),
          e("depreciation_schedule", "planned yearly depreciation", c("fiscal_year", "smallint", "Year"),
              c("depreciation_amount", "numeric(14,2)", "Depreciation of the year")),
          e("maintenance_plan", "recurring maintenance of an asset", c("interval_days", "integer", "Days between services")),
          e("maintenance_work_order", "one maintenance job", c("performed_on", "date", "Date performed"),
              c("labour_hours", "numeric(6,2)", "Hours of labour")),
          e("spare_part", "part kept for repairs", c("part_number", "varchar(30)", "Manufacturer's part number")),
          e("meter_reading", "odometer or counter reading", c("read_at", "timestamp", "When read"), c("reading", "numeric(12,1)", "Value read")),
          e("asset_transfer", "move of an asset to another place", c("transferred_on", "date", "Date moved")),
          e("asset_disposal", "sale or scrapping of an asset", c("proceeds", "numeric(14,2)", "Money received"))));

  /** A dependent table: name suffix, what it holds (%s = the entity), and its own columns. */
  private record Dependent(String suffix, String what, List<String[]> columns, boolean byEmployee) {}

  private static final List<Dependent> DEPENDENTS = List.of(
      new Dependent("lines", "line items of a %s", List.of(c("line_number", "smallint", "Position of the line"),
          c("quantity", "numeric(12,3)", "Units on the line"), c("unit_price", "numeric(12,4)", "Price per unit"),
          c("line_amount", "numeric(14,2)", "Quantity times unit price")), false),
      new Dependent("status_history", "every status change of a %s", List.of(c("old_status", "varchar(20)", "Status before"),
          c("new_status", "varchar(20)", "Status after"), c("changed_at", "timestamp", "When the status changed")), true),
      new Dependent("approvals", "approval decisions on a %s", List.of(c("decision", "varchar(10)", "approved or rejected"),
          c("decided_at", "timestamp", "When the decision was made"), c("remark", "text", "Reason given by the approver")), true),
      new Dependent("attachments", "files attached to a %s", List.of(c("file_name", "varchar(200)", "Original file name"),
          c("mime_type", "varchar(80)", "Media type of the file"), c("size_bytes", "bigint", "File size"),
          c("uploaded_at", "timestamp", "When the file was uploaded")), false),
      new Dependent("notes", "remarks users wrote on a %s", List.of(c("note_text", "text", "The remark"),
          c("written_at", "timestamp", "When it was written")), true));

  private EnterpriseSchemaGenerator() {}

  /**
   * Exactly {@code tables} tables, named {@code module.table}, each with its module; the same seed
   * and size always give the same model.
   *
   * @param reservedModules module names already taken (the generator's modules must not collide with them)
   */
  static SchemaModel generate(String databaseId, long seed, int tables, Set<String> reservedModules) {
    if (tables < 0) {
      throw new IllegalArgumentException("the number of generated tables must not be negative, not " + tables);
    }
    Random random = new Random(seed);
    List<Table> out = new ArrayList<>(tables);
    List<ForeignKey> fks = new ArrayList<>();
    Map<String, Table> hubs = new LinkedHashMap<>();
    for (int round = 0; out.size() < tables; round++) {
      for (Area area : AREAS) {
        if (out.size() >= tables) {
          break;
        }
        String[] region = region(round);
        String module = region == null ? area.name() : area.name() + "_" + region[0];
        if (reservedModules.contains(module)) {
          throw new IllegalArgumentException("generated module '" + module + "' collides with a schema of the benchmark");
        }
        String label = region == null ? area.title() : area.title() + ", " + region[1];
        addModule(random, area, module, label, tables, out, fks, hubs);
      }
    }
    return new SchemaModel(databaseId, out, fks);
  }

  /**
   * {@code base}'s tables and foreign keys with {@code generated} generated tables beside them, as
   * one model of {@code databaseId}: a large schema whose benchmark tables are among look-alikes.
   *
   * @param reservedModules the modules {@code base} already uses
   */
  static SchemaModel beside(SchemaModel base, String databaseId, long seed, int generated, Set<String> reservedModules) {
    SchemaModel extra = generate(databaseId, seed, generated, reservedModules);
    List<Table> tables = new ArrayList<>(base.tables());
    tables.addAll(extra.tables());
    List<ForeignKey> fks = new ArrayList<>(base.foreignKeys());
    fks.addAll(extra.foreignKeys());
    return new SchemaModel(databaseId, tables, fks);
  }

  private static String[] region(int round) {
    if (round == 0) {
      return null;
    }
    if (round <= REGIONS.length) {
      return REGIONS[round - 1];
    }
    int unit = round - REGIONS.length + 1;
    return new String[] {"unit" + unit, "business unit " + unit};
  }

  private static void addModule(Random random, Area area, String module, String label, int limit, List<Table> out,
                                List<ForeignKey> fks, Map<String, Table> hubs) {
    List<String> moduleEntities = new ArrayList<>();
    for (Entity entity : area.entities()) {
      if (out.size() >= limit) {
        return;
      }
      // A lookup of kinds first, so the entity can point at it.
      Optional<String> typeTable = Optional.empty();
      if (random.nextInt(4) == 0 && out.size() < limit - 1) {
        String name = entity.name() + "_types";
        List<Column> cols = List.of(pk(entity.name() + "_type_id", "Identifier of the " + human(entity.name()) + " type"),
            col("type_code", "varchar(20)", "Short code of the type"), col("label", "varchar(80)", "Name of the type as users see it"),
            col("is_active", "boolean", "Whether the type can still be chosen"));
        out.add(new Table(module + "." + name, Optional.of("Kinds of " + human(entity.name()) + " (" + label + ")"), cols, Optional.of(module)));
        typeTable = Optional.of(name);
      }
      String table = plural(entity.name());
      String what = human(entity.name());
      List<Column> cols = new ArrayList<>();
      cols.add(pk(entity.name() + "_id", "Identifier of the " + what));
      for (String[] own : entity.columns()) {
        cols.add(col(own[0], own[1], own[2]));
      }
      for (String[] common : pick(random, COMMON, 2 + random.nextInt(3))) {
        addUnique(cols, col(common[0], common[1], String.format(Locale.ROOT, common[2], what)));
      }
      List<ForeignKey> tableFks = new ArrayList<>();
      String qualified = module + "." + table;
      if (typeTable.isPresent()) {
        String target = entity.name() + "_type_id";
        addUnique(cols, col(target, "integer", "Kind of " + what));
        tableFks.add(fk(qualified, target, module + "." + typeTable.get(), target));
      }
      // Up to two earlier entities of the module this one belongs to.
      int parents = Math.min(moduleEntities.size(), random.nextInt(3));
      for (String parent : pickNames(random, moduleEntities, parents)) {
        String column = parent + "_id";
        if (addUnique(cols, col(column, "integer", "The " + human(parent) + " this " + what + " belongs to"))) {
          tableFks.add(fk(qualified, column, module + "." + plural(parent), column));
        }
      }
      // Shared master data of other modules.
      for (Hub hub : HUBS) {
        Table target = hubs.get(hub.area() + "." + hub.entity());
        if (target == null || hub.area().equals(area.name()) || random.nextInt(4) != 0) {
          continue;
        }
        String column = hub.roles()[random.nextInt(hub.roles().length)];
        String role = column.substring(0, column.length() - 3).replace('_', ' ');
        if (addUnique(cols, col(column, "integer", capitalise(role) + " of the " + what + " (" + hub.area() + ")"))) {
          tableFks.add(fk(qualified, column, target.name(), hub.entity() + "_id"));
        }
      }
      cols.add(col("created_at", "timestamp", "When the " + what + " was recorded"));
      cols.add(col("updated_at", "timestamp", "When the " + what + " was last changed"));
      Table base = new Table(qualified, Optional.of(capitalise(plural(what)) + ": each row is one " + entity.what() + " (" + label + ")"),
          cols, Optional.of(module));
      out.add(base);
      fks.addAll(tableFks);
      moduleEntities.add(entity.name());
      hubs.putIfAbsent(module + "." + entity.name(), base);
      for (Dependent d : DEPENDENTS) {
        if (out.size() >= limit) {
          return;
        }
        if (random.nextInt(5) >= 2) {
          continue;
        }
        String name = entity.name() + "_" + d.suffix();
        String dq = module + "." + name;
        List<Column> dc = new ArrayList<>();
        dc.add(pk(name.replaceAll("s$", "") + "_id", "Identifier of the row"));
        dc.add(notNull(col(entity.name() + "_id", "integer", "The " + what + " this row belongs to")));
        fks.add(fk(dq, entity.name() + "_id", qualified, entity.name() + "_id"));
        for (String[] own : d.columns()) {
          dc.add(col(own[0], own[1], own[2]));
        }
        Table employees = hubs.get("hr.employee");
        if (d.byEmployee() && employees != null) {
          dc.add(col("by_employee_id", "integer", "Employee who made the entry"));
          fks.add(fk(dq, "by_employee_id", employees.name(), "employee_id"));
        }
        out.add(new Table(dq, Optional.of(capitalise(String.format(Locale.ROOT, d.what(), what)) + " (" + label + ")"), dc, Optional.of(module)));
      }
    }
  }

  private static Area area(String name, String title, Entity... entities) {
    return new Area(name, title, List.of(entities));
  }

  private static Entity e(String name, String what, String[]... columns) {
    return new Entity(name, what, List.of(columns));
  }

  private static String[] c(String name, String type, String comment) {
    return new String[] {name, type, comment};
  }

  private static Column pk(String name, String comment) {
    return new Column(name, "integer", false, Optional.empty(), Optional.of(comment), true, Optional.empty());
  }

  private static Column col(String name, String type, String comment) {
    return new Column(name, type, true, Optional.empty(), Optional.of(comment), false, Optional.empty());
  }

  private static Column notNull(Column c) {
    return new Column(c.name(), c.type(), false, c.defaultValue(), c.comment(), c.primaryKey(), c.references(), c.values());
  }

  private static ForeignKey fk(String from, String fromColumn, String to, String toColumn) {
    return new ForeignKey(from + "_" + fromColumn + "_fkey", from, List.of(fromColumn), to, List.of(toColumn));
  }

  private static boolean addUnique(List<Column> cols, Column c) {
    if (cols.stream().anyMatch(x -> x.name().equals(c.name()))) {
      return false;
    }
    cols.add(c);
    return true;
  }

  private static List<String[]> pick(Random random, String[][] from, int n) {
    Set<Integer> chosen = new LinkedHashSet<>();
    while (chosen.size() < Math.min(n, from.length)) {
      chosen.add(random.nextInt(from.length));
    }
    return chosen.stream().map(i -> from[i]).toList();
  }

  private static List<String> pickNames(Random random, List<String> from, int n) {
    Set<Integer> chosen = new LinkedHashSet<>();
    while (chosen.size() < Math.min(n, from.size())) {
      chosen.add(random.nextInt(from.size()));
    }
    return chosen.stream().map(from::get).toList();
  }

  static String plural(String word) {
    if (word.endsWith("y") && !word.endsWith("ey") && !word.endsWith("ay")) {
      return word.substring(0, word.length() - 1) + "ies";
    }
    if (word.endsWith("s") || word.endsWith("x") || word.endsWith("ch") || word.endsWith("sh")) {
      return word + "es";
    }
    return word + "s";
  }

  private static String human(String snake) {
    return snake.replace('_', ' ');
  }

  private static String capitalise(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
