-- schemarag sample database: a small ERP in six modules (one PostgreSQL schema per module).
-- Loaded by `./schemarag sample load` and by `./schemarag demo`. Idempotent: drops and recreates
-- its six schemas.

DROP SCHEMA IF EXISTS support, procurement, inventory, finance, sales, hr CASCADE;
CREATE SCHEMA hr;
CREATE SCHEMA sales;
CREATE SCHEMA finance;
CREATE SCHEMA inventory;
CREATE SCHEMA procurement;
CREATE SCHEMA support;

COMMENT ON SCHEMA hr IS 'Human resources: people, organisation, pay, time off, hiring';
COMMENT ON SCHEMA sales IS 'Customers, quotes, orders, invoices to customers, campaigns';
COMMENT ON SCHEMA finance IS 'General ledger, accounts, payments, budgets, tax';
COMMENT ON SCHEMA inventory IS 'Products, warehouses, stock levels and movements';
COMMENT ON SCHEMA procurement IS 'Suppliers, purchase requisitions, purchase orders, receipts';
COMMENT ON SCHEMA support IS 'Customer support tickets, SLAs, knowledge base';

-- ======================================================================= HR (14)
CREATE TABLE hr.locations (
  location_id serial PRIMARY KEY,
  name text NOT NULL,
  city text NOT NULL,
  country_code char(2) NOT NULL,
  timezone text NOT NULL DEFAULT 'UTC'
);
COMMENT ON TABLE hr.locations IS 'Office sites where employees work';
COMMENT ON COLUMN hr.locations.name IS 'Site name, e.g. Berlin HQ';
COMMENT ON COLUMN hr.locations.country_code IS 'ISO 3166-1 alpha-2 country code';
COMMENT ON COLUMN hr.locations.timezone IS 'IANA time zone of the site';

CREATE TABLE hr.departments (
  department_id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  cost_center text NOT NULL,
  location_id int REFERENCES hr.locations(location_id),
  parent_department_id int REFERENCES hr.departments(department_id)
);
COMMENT ON TABLE hr.departments IS 'Organisational units; departments nest through parent_department_id';
COMMENT ON COLUMN hr.departments.name IS 'Department name, e.g. Engineering';
COMMENT ON COLUMN hr.departments.cost_center IS 'Cost center code the department books expenses to';
COMMENT ON COLUMN hr.departments.parent_department_id IS 'Enclosing department; null for top-level units';

CREATE TABLE hr.job_titles (
  job_title_id serial PRIMARY KEY,
  title text NOT NULL,
  job_family text NOT NULL,
  grade smallint NOT NULL,
  min_salary numeric(12,2) NOT NULL,
  max_salary numeric(12,2) NOT NULL
);
COMMENT ON TABLE hr.job_titles IS 'Job catalogue with pay bands';
COMMENT ON COLUMN hr.job_titles.job_family IS 'Family of related jobs: engineering, sales, finance, operations, support';
COMMENT ON COLUMN hr.job_titles.grade IS 'Seniority grade, 1 (entry) to 9 (executive)';
COMMENT ON COLUMN hr.job_titles.min_salary IS 'Lower bound of the annual pay band';
COMMENT ON COLUMN hr.job_titles.max_salary IS 'Upper bound of the annual pay band';

CREATE TABLE hr.employees (
  employee_id serial PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL UNIQUE,
  phone text,
  hire_date date NOT NULL,
  termination_date date,
  department_id int NOT NULL REFERENCES hr.departments(department_id),
  job_title_id int NOT NULL REFERENCES hr.job_titles(job_title_id),
  manager_id int REFERENCES hr.employees(employee_id),
  location_id int REFERENCES hr.locations(location_id),
  employment_type text NOT NULL DEFAULT 'full_time',
  status text NOT NULL DEFAULT 'active'
);
COMMENT ON TABLE hr.employees IS 'Everyone employed by the company, current and former';
COMMENT ON COLUMN hr.employees.email IS 'Work email address';
COMMENT ON COLUMN hr.employees.hire_date IS 'First day of employment';
COMMENT ON COLUMN hr.employees.termination_date IS 'Last day of employment; null while employed';
COMMENT ON COLUMN hr.employees.manager_id IS 'Direct line manager';
COMMENT ON COLUMN hr.employees.employment_type IS 'full_time, part_time or contractor';
COMMENT ON COLUMN hr.employees.status IS 'active, on_leave or terminated';

CREATE TABLE hr.salaries (
  salary_id serial PRIMARY KEY,
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  amount numeric(12,2) NOT NULL,
  currency char(3) NOT NULL DEFAULT 'EUR',
  effective_from date NOT NULL,
  effective_to date
);
COMMENT ON TABLE hr.salaries IS 'Annual base salary history per employee';
COMMENT ON COLUMN hr.salaries.amount IS 'Gross annual base salary';
COMMENT ON COLUMN hr.salaries.effective_from IS 'Date the salary took effect';
COMMENT ON COLUMN hr.salaries.effective_to IS 'Date the salary ended; null for the current salary';

CREATE TABLE hr.payroll_runs (
  payroll_run_id serial PRIMARY KEY,
  period_start date NOT NULL,
  period_end date NOT NULL,
  paid_on date,
  status text NOT NULL DEFAULT 'draft'
);
COMMENT ON TABLE hr.payroll_runs IS 'Monthly payroll batches';
COMMENT ON COLUMN hr.payroll_runs.status IS 'draft, approved or paid';

CREATE TABLE hr.payslips (
  payslip_id serial PRIMARY KEY,
  payroll_run_id int NOT NULL REFERENCES hr.payroll_runs(payroll_run_id),
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  gross_pay numeric(12,2) NOT NULL,
  tax_withheld numeric(12,2) NOT NULL,
  net_pay numeric(12,2) NOT NULL
);
COMMENT ON TABLE hr.payslips IS 'One employee''s pay in one payroll run';
COMMENT ON COLUMN hr.payslips.gross_pay IS 'Pay before tax and deductions';
COMMENT ON COLUMN hr.payslips.tax_withheld IS 'Income tax withheld';
COMMENT ON COLUMN hr.payslips.net_pay IS 'Amount paid out to the employee';

CREATE TABLE hr.benefit_plans (
  benefit_plan_id serial PRIMARY KEY,
  name text NOT NULL,
  kind text NOT NULL,
  monthly_cost numeric(10,2) NOT NULL
);
COMMENT ON TABLE hr.benefit_plans IS 'Benefits the company offers: health, pension, mobility';
COMMENT ON COLUMN hr.benefit_plans.kind IS 'health, pension, mobility or wellness';
COMMENT ON COLUMN hr.benefit_plans.monthly_cost IS 'Employer cost per enrolled employee per month';

CREATE TABLE hr.benefit_enrollments (
  enrollment_id serial PRIMARY KEY,
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  benefit_plan_id int NOT NULL REFERENCES hr.benefit_plans(benefit_plan_id),
  enrolled_on date NOT NULL,
  ended_on date
);
COMMENT ON TABLE hr.benefit_enrollments IS 'Which employee takes part in which benefit plan';

CREATE TABLE hr.leave_types (
  leave_type_id serial PRIMARY KEY,
  name text NOT NULL,
  paid boolean NOT NULL DEFAULT true,
  days_per_year smallint NOT NULL
);
COMMENT ON TABLE hr.leave_types IS 'Kinds of absence: vacation, sick leave, parental leave';
COMMENT ON COLUMN hr.leave_types.days_per_year IS 'Yearly entitlement in working days';

CREATE TABLE hr.leave_requests (
  leave_request_id serial PRIMARY KEY,
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  leave_type_id int NOT NULL REFERENCES hr.leave_types(leave_type_id),
  start_date date NOT NULL,
  end_date date NOT NULL,
  days numeric(4,1) NOT NULL,
  status text NOT NULL DEFAULT 'requested',
  approved_by int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE hr.leave_requests IS 'Time-off requests (vacation, sick days) and their approval';
COMMENT ON COLUMN hr.leave_requests.days IS 'Working days of absence requested';
COMMENT ON COLUMN hr.leave_requests.status IS 'requested, approved, rejected or cancelled';
COMMENT ON COLUMN hr.leave_requests.approved_by IS 'Manager who decided the request';

CREATE TABLE hr.performance_reviews (
  review_id serial PRIMARY KEY,
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  reviewer_id int NOT NULL REFERENCES hr.employees(employee_id),
  review_year smallint NOT NULL,
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  summary text
);
COMMENT ON TABLE hr.performance_reviews IS 'Yearly performance appraisal of an employee';
COMMENT ON COLUMN hr.performance_reviews.rating IS 'Overall rating from 1 (below expectations) to 5 (outstanding)';

CREATE TABLE hr.job_openings (
  job_opening_id serial PRIMARY KEY,
  job_title_id int NOT NULL REFERENCES hr.job_titles(job_title_id),
  department_id int NOT NULL REFERENCES hr.departments(department_id),
  hiring_manager_id int REFERENCES hr.employees(employee_id),
  opened_on date NOT NULL,
  closed_on date,
  status text NOT NULL DEFAULT 'open'
);
COMMENT ON TABLE hr.job_openings IS 'Open positions (vacancies) being recruited for';
COMMENT ON COLUMN hr.job_openings.status IS 'open, on_hold, filled or cancelled';

CREATE TABLE hr.candidates (
  candidate_id serial PRIMARY KEY,
  job_opening_id int NOT NULL REFERENCES hr.job_openings(job_opening_id),
  full_name text NOT NULL,
  email text NOT NULL,
  source text,
  stage text NOT NULL DEFAULT 'applied',
  applied_on date NOT NULL
);
COMMENT ON TABLE hr.candidates IS 'Job applicants and where they are in the hiring pipeline';
COMMENT ON COLUMN hr.candidates.source IS 'Where the applicant came from: referral, job board, agency';
COMMENT ON COLUMN hr.candidates.stage IS 'applied, screening, interview, offer, hired or rejected';

-- ======================================================================= Sales (15)
CREATE TABLE sales.sales_regions (
  region_id serial PRIMARY KEY,
  name text NOT NULL,
  manager_id int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE sales.sales_regions IS 'Sales territories, each led by a regional manager';

CREATE TABLE sales.customers (
  customer_id serial PRIMARY KEY,
  company_name text NOT NULL,
  industry text,
  country_code char(2) NOT NULL,
  region_id int REFERENCES sales.sales_regions(region_id),
  account_manager_id int REFERENCES hr.employees(employee_id),
  credit_limit numeric(12,2) NOT NULL DEFAULT 10000,
  segment text NOT NULL DEFAULT 'smb',
  created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE sales.customers IS 'Companies that buy from us';
COMMENT ON COLUMN sales.customers.company_name IS 'Legal name of the customer company';
COMMENT ON COLUMN sales.customers.industry IS 'Industry sector, e.g. retail, manufacturing';
COMMENT ON COLUMN sales.customers.account_manager_id IS 'Sales employee who owns the account';
COMMENT ON COLUMN sales.customers.credit_limit IS 'Most open receivables allowed for this customer';
COMMENT ON COLUMN sales.customers.segment IS 'smb, mid_market or enterprise';

CREATE TABLE sales.customer_contacts (
  contact_id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  full_name text NOT NULL,
  email text,
  phone text,
  job_role text,
  is_primary boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE sales.customer_contacts IS 'People we deal with at a customer company';
COMMENT ON COLUMN sales.customer_contacts.is_primary IS 'The main contact of the customer';

CREATE TABLE sales.customer_addresses (
  address_id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  kind text NOT NULL,
  street text NOT NULL,
  city text NOT NULL,
  postal_code text,
  country_code char(2) NOT NULL
);
COMMENT ON TABLE sales.customer_addresses IS 'Billing and shipping addresses of customers';
COMMENT ON COLUMN sales.customer_addresses.kind IS 'billing or shipping';

CREATE TABLE sales.price_lists (
  price_list_id serial PRIMARY KEY,
  name text NOT NULL,
  currency char(3) NOT NULL DEFAULT 'EUR',
  valid_from date NOT NULL,
  valid_to date
);
COMMENT ON TABLE sales.price_lists IS 'Named sets of selling prices, e.g. list price, distributor price';

CREATE TABLE sales.leads (
  lead_id serial PRIMARY KEY,
  company_name text NOT NULL,
  contact_email text,
  source text,
  owner_id int REFERENCES hr.employees(employee_id),
  status text NOT NULL DEFAULT 'new',
  created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE sales.leads IS 'Prospective customers not yet qualified';
COMMENT ON COLUMN sales.leads.status IS 'new, contacted, qualified or disqualified';

CREATE TABLE sales.opportunities (
  opportunity_id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  owner_id int NOT NULL REFERENCES hr.employees(employee_id),
  name text NOT NULL,
  stage text NOT NULL DEFAULT 'prospecting',
  expected_value numeric(12,2),
  probability smallint,
  expected_close date
);
COMMENT ON TABLE sales.opportunities IS 'Deals in the sales pipeline';
COMMENT ON COLUMN sales.opportunities.stage IS 'prospecting, proposal, negotiation, won or lost';
COMMENT ON COLUMN sales.opportunities.expected_value IS 'Deal value expected if won';
COMMENT ON COLUMN sales.opportunities.probability IS 'Chance of winning in percent';

CREATE TABLE sales.quotes (
  quote_id serial PRIMARY KEY,
  opportunity_id int REFERENCES sales.opportunities(opportunity_id),
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  issued_on date NOT NULL,
  valid_until date NOT NULL,
  total_amount numeric(12,2) NOT NULL,
  status text NOT NULL DEFAULT 'sent'
);
COMMENT ON TABLE sales.quotes IS 'Price offers sent to customers';
COMMENT ON COLUMN sales.quotes.status IS 'draft, sent, accepted, declined or expired';

CREATE TABLE sales.orders (
  order_id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  quote_id int REFERENCES sales.quotes(quote_id),
  sales_rep_id int REFERENCES hr.employees(employee_id),
  order_date date NOT NULL,
  status text NOT NULL DEFAULT 'open',
  currency char(3) NOT NULL DEFAULT 'EUR',
  total_amount numeric(12,2) NOT NULL DEFAULT 0,
  shipping_address_id int REFERENCES sales.customer_addresses(address_id)
);
COMMENT ON TABLE sales.orders IS 'Customer sales orders';
COMMENT ON COLUMN sales.orders.order_date IS 'Date the customer placed the order';
COMMENT ON COLUMN sales.orders.status IS 'open, confirmed, shipped, delivered or cancelled';
COMMENT ON COLUMN sales.orders.total_amount IS 'Order value including all lines, before tax';
COMMENT ON COLUMN sales.orders.sales_rep_id IS 'Employee credited with the sale';

CREATE TABLE sales.order_lines (
  order_line_id serial PRIMARY KEY,
  order_id int NOT NULL REFERENCES sales.orders(order_id),
  product_id int NOT NULL,
  quantity int NOT NULL,
  unit_price numeric(12,2) NOT NULL,
  discount_pct numeric(5,2) NOT NULL DEFAULT 0
);
COMMENT ON TABLE sales.order_lines IS 'Products and quantities of a sales order';
COMMENT ON COLUMN sales.order_lines.unit_price IS 'Selling price per unit at order time';
COMMENT ON COLUMN sales.order_lines.discount_pct IS 'Line discount in percent';

CREATE TABLE sales.shipments (
  shipment_id serial PRIMARY KEY,
  order_id int NOT NULL REFERENCES sales.orders(order_id),
  warehouse_id int,
  carrier text,
  tracking_number text,
  shipped_at timestamptz,
  delivered_at timestamptz
);
COMMENT ON TABLE sales.shipments IS 'Deliveries of sales orders to customers';
COMMENT ON COLUMN sales.shipments.carrier IS 'Logistics company, e.g. DHL, UPS';

CREATE TABLE sales.customer_invoices (
  invoice_id serial PRIMARY KEY,
  order_id int NOT NULL REFERENCES sales.orders(order_id),
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  invoice_number text NOT NULL UNIQUE,
  issued_on date NOT NULL,
  due_on date NOT NULL,
  amount numeric(12,2) NOT NULL,
  tax_amount numeric(12,2) NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'open'
);
COMMENT ON TABLE sales.customer_invoices IS 'Invoices billed to customers for their orders (accounts receivable)';
COMMENT ON COLUMN sales.customer_invoices.due_on IS 'Payment due date';
COMMENT ON COLUMN sales.customer_invoices.status IS 'open, paid, overdue or void';

CREATE TABLE sales.returns (
  return_id serial PRIMARY KEY,
  order_id int NOT NULL REFERENCES sales.orders(order_id),
  reason text NOT NULL,
  requested_on date NOT NULL,
  refund_amount numeric(12,2),
  status text NOT NULL DEFAULT 'requested'
);
COMMENT ON TABLE sales.returns IS 'Goods sent back by customers (RMA) and refunds';
COMMENT ON COLUMN sales.returns.reason IS 'Why the customer returned the goods: damaged, wrong item, not needed';

CREATE TABLE sales.campaigns (
  campaign_id serial PRIMARY KEY,
  name text NOT NULL,
  channel text NOT NULL,
  budget numeric(12,2),
  starts_on date NOT NULL,
  ends_on date
);
COMMENT ON TABLE sales.campaigns IS 'Marketing campaigns that generate leads';
COMMENT ON COLUMN sales.campaigns.channel IS 'email, webinar, trade_show, paid_search or social';

CREATE TABLE sales.commissions (
  commission_id serial PRIMARY KEY,
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  order_id int NOT NULL REFERENCES sales.orders(order_id),
  amount numeric(12,2) NOT NULL,
  paid boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE sales.commissions IS 'Sales commission earned by reps on orders';

-- ======================================================================= Inventory (13)
CREATE TABLE inventory.units_of_measure (
  uom_code text PRIMARY KEY,
  description text NOT NULL
);
COMMENT ON TABLE inventory.units_of_measure IS 'Units products are counted in: piece, kg, litre, box';

CREATE TABLE inventory.product_categories (
  category_id serial PRIMARY KEY,
  name text NOT NULL,
  parent_category_id int REFERENCES inventory.product_categories(category_id)
);
COMMENT ON TABLE inventory.product_categories IS 'Product category tree';

CREATE TABLE inventory.products (
  product_id serial PRIMARY KEY,
  sku text NOT NULL UNIQUE,
  name text NOT NULL,
  category_id int REFERENCES inventory.product_categories(category_id),
  uom_code text NOT NULL REFERENCES inventory.units_of_measure(uom_code),
  list_price numeric(12,2) NOT NULL,
  standard_cost numeric(12,2) NOT NULL,
  weight_kg numeric(8,3),
  discontinued boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE inventory.products IS 'Everything we sell or stock';
COMMENT ON COLUMN inventory.products.sku IS 'Stock keeping unit: the product code';
COMMENT ON COLUMN inventory.products.list_price IS 'Standard selling price per unit';
COMMENT ON COLUMN inventory.products.standard_cost IS 'Standard purchase or production cost per unit';
COMMENT ON COLUMN inventory.products.discontinued IS 'No longer sold';

ALTER TABLE sales.order_lines ADD CONSTRAINT order_lines_product_fk FOREIGN KEY (product_id) REFERENCES inventory.products(product_id);

CREATE TABLE sales.price_list_items (
  price_list_id int NOT NULL REFERENCES sales.price_lists(price_list_id),
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  unit_price numeric(12,2) NOT NULL,
  PRIMARY KEY (price_list_id, product_id)
);
COMMENT ON TABLE sales.price_list_items IS 'Price of a product in a price list';

CREATE TABLE inventory.warehouses (
  warehouse_id serial PRIMARY KEY,
  name text NOT NULL,
  location_id int REFERENCES hr.locations(location_id),
  manager_id int REFERENCES hr.employees(employee_id),
  capacity_m3 numeric(10,1)
);
COMMENT ON TABLE inventory.warehouses IS 'Storage sites holding stock';
COMMENT ON COLUMN inventory.warehouses.capacity_m3 IS 'Storage volume in cubic metres';

ALTER TABLE sales.shipments ADD CONSTRAINT shipments_warehouse_fk FOREIGN KEY (warehouse_id) REFERENCES inventory.warehouses(warehouse_id);

CREATE TABLE inventory.bins (
  bin_id serial PRIMARY KEY,
  warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  code text NOT NULL,
  zone text
);
COMMENT ON TABLE inventory.bins IS 'Storage locations (shelf, aisle) inside a warehouse';

CREATE TABLE inventory.stock_levels (
  warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  quantity_on_hand int NOT NULL DEFAULT 0,
  quantity_reserved int NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (warehouse_id, product_id)
);
COMMENT ON TABLE inventory.stock_levels IS 'Current stock of each product in each warehouse';
COMMENT ON COLUMN inventory.stock_levels.quantity_on_hand IS 'Units physically in the warehouse';
COMMENT ON COLUMN inventory.stock_levels.quantity_reserved IS 'Units promised to open orders';

CREATE TABLE inventory.stock_movements (
  movement_id bigserial PRIMARY KEY,
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  movement_type text NOT NULL,
  quantity int NOT NULL,
  reference text,
  moved_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE inventory.stock_movements IS 'Every change of stock: receipts, picks, transfers, adjustments';
COMMENT ON COLUMN inventory.stock_movements.movement_type IS 'receipt, issue, transfer_in, transfer_out or adjustment';
COMMENT ON COLUMN inventory.stock_movements.quantity IS 'Units moved; negative for issues';
COMMENT ON COLUMN inventory.stock_movements.reference IS 'Document that caused the movement, e.g. an order or receipt number';

CREATE TABLE inventory.reorder_rules (
  rule_id serial PRIMARY KEY,
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  reorder_point int NOT NULL,
  reorder_quantity int NOT NULL
);
COMMENT ON TABLE inventory.reorder_rules IS 'When stock falls below the reorder point, buy the reorder quantity';

CREATE TABLE inventory.lots (
  lot_id serial PRIMARY KEY,
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  lot_number text NOT NULL,
  expires_on date
);
COMMENT ON TABLE inventory.lots IS 'Production batches of a product, with expiry';

CREATE TABLE inventory.stock_counts (
  count_id serial PRIMARY KEY,
  warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  counted_on date NOT NULL,
  counted_by int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE inventory.stock_counts IS 'Physical inventory counts (stocktakes)';

CREATE TABLE inventory.stock_count_lines (
  count_line_id serial PRIMARY KEY,
  count_id int NOT NULL REFERENCES inventory.stock_counts(count_id),
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  expected_quantity int NOT NULL,
  counted_quantity int NOT NULL
);
COMMENT ON TABLE inventory.stock_count_lines IS 'Expected versus counted units per product in a stocktake';

CREATE TABLE inventory.transfers (
  transfer_id serial PRIMARY KEY,
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  from_warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  to_warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  quantity int NOT NULL,
  requested_on date NOT NULL,
  status text NOT NULL DEFAULT 'requested'
);
COMMENT ON TABLE inventory.transfers IS 'Stock moved between warehouses';

-- ======================================================================= Procurement (12)
CREATE TABLE procurement.suppliers (
  supplier_id serial PRIMARY KEY,
  name text NOT NULL,
  country_code char(2) NOT NULL,
  payment_terms_days smallint NOT NULL DEFAULT 30,
  rating smallint,
  active boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE procurement.suppliers IS 'Vendors we buy goods and services from';
COMMENT ON COLUMN procurement.suppliers.payment_terms_days IS 'Days after invoice until payment is due';
COMMENT ON COLUMN procurement.suppliers.rating IS 'Supplier score from 1 (poor) to 5 (excellent)';

CREATE TABLE procurement.supplier_contacts (
  contact_id serial PRIMARY KEY,
  supplier_id int NOT NULL REFERENCES procurement.suppliers(supplier_id),
  full_name text NOT NULL,
  email text,
  phone text
);
COMMENT ON TABLE procurement.supplier_contacts IS 'People we deal with at a supplier';

CREATE TABLE procurement.supplier_products (
  supplier_id int NOT NULL REFERENCES procurement.suppliers(supplier_id),
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  supplier_sku text,
  unit_cost numeric(12,2) NOT NULL,
  lead_time_days smallint NOT NULL,
  PRIMARY KEY (supplier_id, product_id)
);
COMMENT ON TABLE procurement.supplier_products IS 'Which supplier sells which product, at what cost and lead time';
COMMENT ON COLUMN procurement.supplier_products.lead_time_days IS 'Days from purchase order to delivery';

CREATE TABLE procurement.contracts (
  contract_id serial PRIMARY KEY,
  supplier_id int NOT NULL REFERENCES procurement.suppliers(supplier_id),
  starts_on date NOT NULL,
  ends_on date,
  annual_value numeric(14,2),
  owner_id int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE procurement.contracts IS 'Framework agreements with suppliers';

CREATE TABLE procurement.requisitions (
  requisition_id serial PRIMARY KEY,
  requested_by int NOT NULL REFERENCES hr.employees(employee_id),
  department_id int NOT NULL REFERENCES hr.departments(department_id),
  requested_on date NOT NULL,
  status text NOT NULL DEFAULT 'submitted',
  justification text
);
COMMENT ON TABLE procurement.requisitions IS 'Internal requests to buy something, before a purchase order';
COMMENT ON COLUMN procurement.requisitions.status IS 'submitted, approved, rejected or ordered';

CREATE TABLE procurement.requisition_lines (
  requisition_line_id serial PRIMARY KEY,
  requisition_id int NOT NULL REFERENCES procurement.requisitions(requisition_id),
  product_id int REFERENCES inventory.products(product_id),
  description text NOT NULL,
  quantity int NOT NULL,
  estimated_cost numeric(12,2)
);
COMMENT ON TABLE procurement.requisition_lines IS 'Items requested in a purchase requisition';

CREATE TABLE procurement.purchase_orders (
  po_id serial PRIMARY KEY,
  supplier_id int NOT NULL REFERENCES procurement.suppliers(supplier_id),
  requisition_id int REFERENCES procurement.requisitions(requisition_id),
  buyer_id int REFERENCES hr.employees(employee_id),
  ordered_on date NOT NULL,
  expected_on date,
  status text NOT NULL DEFAULT 'open',
  total_amount numeric(12,2) NOT NULL DEFAULT 0,
  currency char(3) NOT NULL DEFAULT 'EUR'
);
COMMENT ON TABLE procurement.purchase_orders IS 'Orders we place with suppliers';
COMMENT ON COLUMN procurement.purchase_orders.expected_on IS 'Promised delivery date';
COMMENT ON COLUMN procurement.purchase_orders.status IS 'open, partially_received, received or cancelled';
COMMENT ON COLUMN procurement.purchase_orders.buyer_id IS 'Purchasing employee who placed the order';

CREATE TABLE procurement.purchase_order_lines (
  po_line_id serial PRIMARY KEY,
  po_id int NOT NULL REFERENCES procurement.purchase_orders(po_id),
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  quantity int NOT NULL,
  unit_cost numeric(12,2) NOT NULL
);
COMMENT ON TABLE procurement.purchase_order_lines IS 'Products and quantities ordered from a supplier';

CREATE TABLE procurement.goods_receipts (
  receipt_id serial PRIMARY KEY,
  po_id int NOT NULL REFERENCES procurement.purchase_orders(po_id),
  warehouse_id int NOT NULL REFERENCES inventory.warehouses(warehouse_id),
  received_on date NOT NULL,
  received_by int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE procurement.goods_receipts IS 'Deliveries received from suppliers into a warehouse';

CREATE TABLE procurement.goods_receipt_lines (
  receipt_line_id serial PRIMARY KEY,
  receipt_id int NOT NULL REFERENCES procurement.goods_receipts(receipt_id),
  po_line_id int NOT NULL REFERENCES procurement.purchase_order_lines(po_line_id),
  quantity_received int NOT NULL,
  quantity_rejected int NOT NULL DEFAULT 0
);
COMMENT ON TABLE procurement.goods_receipt_lines IS 'Units received (and rejected at inspection) per purchase order line';

CREATE TABLE procurement.supplier_invoices (
  supplier_invoice_id serial PRIMARY KEY,
  supplier_id int NOT NULL REFERENCES procurement.suppliers(supplier_id),
  po_id int REFERENCES procurement.purchase_orders(po_id),
  invoice_number text NOT NULL,
  received_on date NOT NULL,
  due_on date NOT NULL,
  amount numeric(12,2) NOT NULL,
  status text NOT NULL DEFAULT 'open'
);
COMMENT ON TABLE procurement.supplier_invoices IS 'Bills received from suppliers (accounts payable)';
COMMENT ON COLUMN procurement.supplier_invoices.status IS 'open, approved, paid or disputed';

CREATE TABLE procurement.supplier_evaluations (
  evaluation_id serial PRIMARY KEY,
  supplier_id int NOT NULL REFERENCES procurement.suppliers(supplier_id),
  evaluated_on date NOT NULL,
  on_time_pct numeric(5,2),
  quality_score smallint,
  evaluator_id int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE procurement.supplier_evaluations IS 'Periodic supplier scorecards: delivery punctuality and quality';

-- ======================================================================= Finance (14)
CREATE TABLE finance.currencies (
  currency_code char(3) PRIMARY KEY,
  name text NOT NULL
);
COMMENT ON TABLE finance.currencies IS 'Currencies used in the books';

CREATE TABLE finance.exchange_rates (
  currency_code char(3) NOT NULL REFERENCES finance.currencies(currency_code),
  rate_date date NOT NULL,
  rate_to_eur numeric(14,6) NOT NULL,
  PRIMARY KEY (currency_code, rate_date)
);
COMMENT ON TABLE finance.exchange_rates IS 'Daily exchange rate of each currency to the euro';

CREATE TABLE finance.fiscal_periods (
  period_id serial PRIMARY KEY,
  fiscal_year smallint NOT NULL,
  period_number smallint NOT NULL,
  starts_on date NOT NULL,
  ends_on date NOT NULL,
  closed boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE finance.fiscal_periods IS 'Accounting months of each fiscal year';
COMMENT ON COLUMN finance.fiscal_periods.closed IS 'No more postings allowed';

CREATE TABLE finance.accounts (
  account_id serial PRIMARY KEY,
  account_number text NOT NULL UNIQUE,
  name text NOT NULL,
  account_type text NOT NULL,
  parent_account_id int REFERENCES finance.accounts(account_id)
);
COMMENT ON TABLE finance.accounts IS 'Chart of accounts of the general ledger';
COMMENT ON COLUMN finance.accounts.account_type IS 'asset, liability, equity, revenue or expense';

CREATE TABLE finance.cost_centers (
  cost_center_code text PRIMARY KEY,
  name text NOT NULL,
  department_id int REFERENCES hr.departments(department_id)
);
COMMENT ON TABLE finance.cost_centers IS 'Cost centers expenses are booked to';

CREATE TABLE finance.journal_entries (
  entry_id bigserial PRIMARY KEY,
  period_id int NOT NULL REFERENCES finance.fiscal_periods(period_id),
  posted_on date NOT NULL,
  description text,
  source text NOT NULL,
  posted_by int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE finance.journal_entries IS 'General ledger postings (header)';
COMMENT ON COLUMN finance.journal_entries.source IS 'Where the posting came from: sales, purchasing, payroll, manual';

CREATE TABLE finance.journal_lines (
  line_id bigserial PRIMARY KEY,
  entry_id bigint NOT NULL REFERENCES finance.journal_entries(entry_id),
  account_id int NOT NULL REFERENCES finance.accounts(account_id),
  cost_center_code text REFERENCES finance.cost_centers(cost_center_code),
  debit numeric(14,2) NOT NULL DEFAULT 0,
  credit numeric(14,2) NOT NULL DEFAULT 0
);
COMMENT ON TABLE finance.journal_lines IS 'Debit and credit lines of a journal entry';

CREATE TABLE finance.bank_accounts (
  bank_account_id serial PRIMARY KEY,
  bank_name text NOT NULL,
  iban text NOT NULL UNIQUE,
  currency_code char(3) NOT NULL REFERENCES finance.currencies(currency_code),
  gl_account_id int REFERENCES finance.accounts(account_id)
);
COMMENT ON TABLE finance.bank_accounts IS 'The company''s bank accounts';

CREATE TABLE finance.customer_payments (
  payment_id serial PRIMARY KEY,
  invoice_id int NOT NULL REFERENCES sales.customer_invoices(invoice_id),
  bank_account_id int NOT NULL REFERENCES finance.bank_accounts(bank_account_id),
  received_on date NOT NULL,
  amount numeric(12,2) NOT NULL,
  method text NOT NULL DEFAULT 'bank_transfer'
);
COMMENT ON TABLE finance.customer_payments IS 'Money received from customers against their invoices';
COMMENT ON COLUMN finance.customer_payments.method IS 'bank_transfer, card or direct_debit';

CREATE TABLE finance.supplier_payments (
  payment_id serial PRIMARY KEY,
  supplier_invoice_id int NOT NULL REFERENCES procurement.supplier_invoices(supplier_invoice_id),
  bank_account_id int NOT NULL REFERENCES finance.bank_accounts(bank_account_id),
  paid_on date NOT NULL,
  amount numeric(12,2) NOT NULL
);
COMMENT ON TABLE finance.supplier_payments IS 'Money paid to suppliers against their invoices';

CREATE TABLE finance.budgets (
  budget_id serial PRIMARY KEY,
  fiscal_year smallint NOT NULL,
  cost_center_code text NOT NULL REFERENCES finance.cost_centers(cost_center_code),
  account_id int NOT NULL REFERENCES finance.accounts(account_id),
  amount numeric(14,2) NOT NULL
);
COMMENT ON TABLE finance.budgets IS 'Planned spend per cost center and account for a fiscal year';

CREATE TABLE finance.expense_reports (
  expense_report_id serial PRIMARY KEY,
  employee_id int NOT NULL REFERENCES hr.employees(employee_id),
  submitted_on date NOT NULL,
  total_amount numeric(10,2) NOT NULL,
  status text NOT NULL DEFAULT 'submitted',
  approved_by int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE finance.expense_reports IS 'Employee travel and expense claims';
COMMENT ON COLUMN finance.expense_reports.status IS 'submitted, approved, reimbursed or rejected';

CREATE TABLE finance.expense_items (
  expense_item_id serial PRIMARY KEY,
  expense_report_id int NOT NULL REFERENCES finance.expense_reports(expense_report_id),
  category text NOT NULL,
  spent_on date NOT NULL,
  amount numeric(10,2) NOT NULL,
  merchant text
);
COMMENT ON TABLE finance.expense_items IS 'Single receipts of an expense report';
COMMENT ON COLUMN finance.expense_items.category IS 'travel, lodging, meals, transport or other';

CREATE TABLE finance.tax_rates (
  tax_rate_id serial PRIMARY KEY,
  country_code char(2) NOT NULL,
  name text NOT NULL,
  rate_pct numeric(5,2) NOT NULL,
  valid_from date NOT NULL
);
COMMENT ON TABLE finance.tax_rates IS 'VAT and sales tax rates by country';

CREATE TABLE finance.assets (
  asset_id serial PRIMARY KEY,
  name text NOT NULL,
  acquired_on date NOT NULL,
  cost numeric(12,2) NOT NULL,
  useful_life_months smallint NOT NULL,
  custodian_id int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE finance.assets IS 'Fixed assets (laptops, vehicles, machines) and their depreciation basis';
COMMENT ON COLUMN finance.assets.custodian_id IS 'Employee responsible for the asset';

-- ======================================================================= Support (12)
CREATE TABLE support.sla_policies (
  sla_id serial PRIMARY KEY,
  name text NOT NULL,
  priority text NOT NULL,
  first_response_hours smallint NOT NULL,
  resolution_hours smallint NOT NULL
);
COMMENT ON TABLE support.sla_policies IS 'Service level targets by ticket priority';
COMMENT ON COLUMN support.sla_policies.first_response_hours IS 'Hours until the first agent reply is due';
COMMENT ON COLUMN support.sla_policies.resolution_hours IS 'Hours until the ticket must be resolved';

CREATE TABLE support.support_teams (
  team_id serial PRIMARY KEY,
  name text NOT NULL,
  lead_id int REFERENCES hr.employees(employee_id)
);
COMMENT ON TABLE support.support_teams IS 'Groups of support agents';

CREATE TABLE support.agents (
  agent_id serial PRIMARY KEY,
  employee_id int NOT NULL UNIQUE REFERENCES hr.employees(employee_id),
  team_id int NOT NULL REFERENCES support.support_teams(team_id),
  max_open_tickets smallint NOT NULL DEFAULT 20
);
COMMENT ON TABLE support.agents IS 'Employees who answer support tickets';

CREATE TABLE support.ticket_categories (
  category_id serial PRIMARY KEY,
  name text NOT NULL,
  team_id int REFERENCES support.support_teams(team_id)
);
COMMENT ON TABLE support.ticket_categories IS 'What a ticket is about: billing, delivery, product defect, account';

CREATE TABLE support.tickets (
  ticket_id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES sales.customers(customer_id),
  contact_id int REFERENCES sales.customer_contacts(contact_id),
  order_id int REFERENCES sales.orders(order_id),
  category_id int REFERENCES support.ticket_categories(category_id),
  sla_id int REFERENCES support.sla_policies(sla_id),
  assigned_agent_id int REFERENCES support.agents(agent_id),
  subject text NOT NULL,
  priority text NOT NULL DEFAULT 'normal',
  status text NOT NULL DEFAULT 'open',
  channel text NOT NULL DEFAULT 'email',
  opened_at timestamptz NOT NULL DEFAULT now(),
  first_response_at timestamptz,
  resolved_at timestamptz
);
COMMENT ON TABLE support.tickets IS 'Customer support cases';
COMMENT ON COLUMN support.tickets.priority IS 'low, normal, high or urgent';
COMMENT ON COLUMN support.tickets.status IS 'open, pending, resolved or closed';
COMMENT ON COLUMN support.tickets.channel IS 'email, phone, chat or portal';
COMMENT ON COLUMN support.tickets.first_response_at IS 'When an agent first replied';
COMMENT ON COLUMN support.tickets.resolved_at IS 'When the ticket was resolved; null while unresolved';

CREATE TABLE support.ticket_messages (
  message_id bigserial PRIMARY KEY,
  ticket_id int NOT NULL REFERENCES support.tickets(ticket_id),
  author_type text NOT NULL,
  author_agent_id int REFERENCES support.agents(agent_id),
  body text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  internal boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE support.ticket_messages IS 'Conversation of a ticket: customer messages, agent replies, internal notes';
COMMENT ON COLUMN support.ticket_messages.author_type IS 'customer or agent';

CREATE TABLE support.ticket_status_history (
  history_id bigserial PRIMARY KEY,
  ticket_id int NOT NULL REFERENCES support.tickets(ticket_id),
  from_status text,
  to_status text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by int REFERENCES support.agents(agent_id)
);
COMMENT ON TABLE support.ticket_status_history IS 'Every status change of a ticket';

CREATE TABLE support.satisfaction_surveys (
  survey_id serial PRIMARY KEY,
  ticket_id int NOT NULL UNIQUE REFERENCES support.tickets(ticket_id),
  score smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  comment text,
  answered_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE support.satisfaction_surveys IS 'Customer satisfaction (CSAT) rating after a ticket is resolved';
COMMENT ON COLUMN support.satisfaction_surveys.score IS 'CSAT score from 1 (very unhappy) to 5 (very happy)';

CREATE TABLE support.kb_articles (
  article_id serial PRIMARY KEY,
  title text NOT NULL,
  category_id int REFERENCES support.ticket_categories(category_id),
  author_agent_id int REFERENCES support.agents(agent_id),
  published_at timestamptz,
  views int NOT NULL DEFAULT 0
);
COMMENT ON TABLE support.kb_articles IS 'Knowledge base (help center) articles';

CREATE TABLE support.ticket_article_links (
  ticket_id int NOT NULL REFERENCES support.tickets(ticket_id),
  article_id int NOT NULL REFERENCES support.kb_articles(article_id),
  PRIMARY KEY (ticket_id, article_id)
);
COMMENT ON TABLE support.ticket_article_links IS 'Knowledge base articles sent to solve a ticket';

CREATE TABLE support.escalations (
  escalation_id serial PRIMARY KEY,
  ticket_id int NOT NULL REFERENCES support.tickets(ticket_id),
  escalated_to int NOT NULL REFERENCES hr.employees(employee_id),
  reason text NOT NULL,
  escalated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE support.escalations IS 'Tickets handed to a senior engineer or manager';

CREATE TABLE support.warranty_claims (
  claim_id serial PRIMARY KEY,
  ticket_id int REFERENCES support.tickets(ticket_id),
  product_id int NOT NULL REFERENCES inventory.products(product_id),
  order_id int REFERENCES sales.orders(order_id),
  claimed_on date NOT NULL,
  approved boolean
);
COMMENT ON TABLE support.warranty_claims IS 'Repair or replacement claims for defective products under warranty';

-- ======================================================================= Access
-- Two business roles for the demo's principals (see README, "Who may ask what"). Roles belong to the
-- cluster, not the database, so they are created only when missing; their grants are made afresh.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sales_analyst') THEN
    CREATE ROLE sales_analyst NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hr_manager') THEN
    CREATE ROLE hr_manager NOLOGIN;
  END IF;
END $$;

-- The sales analyst reads sales and inventory; the HR manager reads hr.
GRANT USAGE ON SCHEMA sales, inventory TO sales_analyst;
GRANT SELECT ON ALL TABLES IN SCHEMA sales, inventory TO sales_analyst;
GRANT USAGE ON SCHEMA hr TO hr_manager;
GRANT SELECT ON ALL TABLES IN SCHEMA hr TO hr_manager;

-- Row-level security: the sales analyst covers the European regions, so North American customers
-- are not theirs to see. Everyone else keeps every row (the permissive policy); the restrictive
-- one applies to sales_analyst only. The table owner is not subject to either.
ALTER TABLE sales.customers ENABLE ROW LEVEL SECURITY;
CREATE POLICY customers_all_rows ON sales.customers FOR SELECT USING (true);
CREATE POLICY customers_european_regions ON sales.customers AS RESTRICTIVE FOR SELECT TO sales_analyst
  USING (region_id IN (SELECT region_id FROM sales.sales_regions WHERE name <> 'North America'));
