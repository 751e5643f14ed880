-- Sample rows for the ERP schema: deterministic (no random()), so answers are reproducible.

INSERT INTO hr.locations (name, city, country_code, timezone) VALUES
  ('Berlin HQ', 'Berlin', 'DE', 'Europe/Berlin'), ('Lyon Office', 'Lyon', 'FR', 'Europe/Paris'),
  ('Austin Office', 'Austin', 'US', 'America/Chicago'), ('Porto Hub', 'Porto', 'PT', 'Europe/Lisbon');

INSERT INTO hr.departments (name, cost_center, location_id, parent_department_id) VALUES
  ('Executive', 'CC100', 1, NULL), ('Engineering', 'CC200', 1, 1), ('Sales', 'CC300', 2, 1),
  ('Finance', 'CC400', 1, 1), ('Operations', 'CC500', 4, 1), ('Support', 'CC600', 4, 1),
  ('Human Resources', 'CC700', 1, 1), ('Procurement', 'CC800', 3, 5);

INSERT INTO hr.job_titles (title, job_family, grade, min_salary, max_salary) VALUES
  ('Chief Executive Officer', 'executive', 9, 180000, 300000), ('Software Engineer', 'engineering', 4, 55000, 85000),
  ('Senior Software Engineer', 'engineering', 6, 75000, 110000), ('Account Executive', 'sales', 4, 45000, 70000),
  ('Sales Manager', 'sales', 6, 70000, 100000), ('Accountant', 'finance', 4, 45000, 65000),
  ('Warehouse Operator', 'operations', 2, 30000, 40000), ('Support Agent', 'support', 3, 35000, 50000),
  ('HR Partner', 'hr', 4, 45000, 65000), ('Buyer', 'operations', 4, 45000, 65000);

-- 60 employees: 1 is the CEO, everyone else reports to the head of their department.
INSERT INTO hr.employees (first_name, last_name, email, hire_date, department_id, job_title_id, manager_id, location_id, employment_type, status)
SELECT (ARRAY['Anna','Ben','Clara','David','Eva','Felix','Greta','Hugo','Ines','Jonas','Karla','Luis'])[1 + i % 12],
       (ARRAY['Schmidt','Martin','Silva','Weber','Dubois','Costa','Fischer','Moreau','Lopez','Wagner'])[1 + (i * 7) % 10],
       'employee' || i || '@example.com',
       date '2015-01-05' + (i * 53) % 3500,
       CASE WHEN i = 1 THEN 1 ELSE 2 + i % 7 END,
       CASE WHEN i = 1 THEN 1 ELSE (ARRAY[2,4,6,7,8,9,10])[1 + i % 7] END,
       NULL,
       1 + i % 4,
       CASE WHEN i % 11 = 0 THEN 'contractor' WHEN i % 7 = 0 THEN 'part_time' ELSE 'full_time' END,
       CASE WHEN i % 13 = 0 THEN 'terminated' WHEN i % 17 = 0 THEN 'on_leave' ELSE 'active' END
FROM generate_series(1, 60) AS i;
UPDATE hr.employees SET manager_id = 1 WHERE employee_id BETWEEN 2 AND 8;
UPDATE hr.employees e SET manager_id = 2 + (e.employee_id % 7) WHERE e.employee_id > 8;
UPDATE hr.employees SET termination_date = hire_date + 700 WHERE status = 'terminated';

INSERT INTO hr.salaries (employee_id, amount, effective_from, effective_to)
SELECT e.employee_id, j.min_salary + ((e.employee_id * 977) % 20) * (j.max_salary - j.min_salary) / 20, e.hire_date, NULL
FROM hr.employees e JOIN hr.job_titles j ON j.job_title_id = e.job_title_id;

INSERT INTO hr.payroll_runs (period_start, period_end, paid_on, status)
SELECT d, (d + interval '1 month - 1 day')::date, (d + interval '1 month - 3 days')::date, 'paid'
FROM generate_series(date '2024-01-01', date '2024-12-01', interval '1 month') AS d;

INSERT INTO hr.payslips (payroll_run_id, employee_id, gross_pay, tax_withheld, net_pay)
SELECT r.payroll_run_id, s.employee_id, round(s.amount / 12, 2), round(s.amount / 12 * 0.3, 2), round(s.amount / 12 * 0.7, 2)
FROM hr.payroll_runs r CROSS JOIN hr.salaries s JOIN hr.employees e ON e.employee_id = s.employee_id
WHERE e.status <> 'terminated';

INSERT INTO hr.benefit_plans (name, kind, monthly_cost) VALUES
  ('Health Plus', 'health', 220), ('Company Pension', 'pension', 150), ('Job Ticket', 'mobility', 49), ('Gym Pass', 'wellness', 35);
INSERT INTO hr.benefit_enrollments (employee_id, benefit_plan_id, enrolled_on)
SELECT i, 1 + i % 4, date '2023-01-01' + i FROM generate_series(1, 60, 2) AS i;

INSERT INTO hr.leave_types (name, paid, days_per_year) VALUES
  ('Vacation', true, 28), ('Sick leave', true, 30), ('Parental leave', false, 0), ('Unpaid leave', false, 0);
INSERT INTO hr.leave_requests (employee_id, leave_type_id, start_date, end_date, days, status, approved_by)
SELECT 1 + (i * 7) % 60, 1 + i % 2, date '2024-01-08' + i * 3, date '2024-01-08' + i * 3 + 1 + i % 5, 2 + i % 5,
       (ARRAY['approved','approved','requested','rejected'])[1 + i % 4], 1
FROM generate_series(1, 80) AS i;

INSERT INTO hr.performance_reviews (employee_id, reviewer_id, review_year, rating, summary)
SELECT e.employee_id, COALESCE(e.manager_id, 1), 2024, 1 + (e.employee_id * 3) % 5, 'Annual review 2024'
FROM hr.employees e WHERE e.employee_id > 1;

INSERT INTO hr.job_openings (job_title_id, department_id, hiring_manager_id, opened_on, status) VALUES
  (2, 2, 2, '2024-09-01', 'open'), (4, 3, 3, '2024-10-15', 'open'), (8, 6, 6, '2024-06-01', 'filled'), (10, 8, 8, '2024-11-01', 'on_hold');
INSERT INTO hr.candidates (job_opening_id, full_name, email, source, stage, applied_on)
SELECT 1 + i % 4, 'Candidate ' || i, 'candidate' || i || '@mail.example', (ARRAY['referral','job_board','agency'])[1 + i % 3],
       (ARRAY['applied','screening','interview','offer','rejected'])[1 + i % 5], date '2024-09-05' + i
FROM generate_series(1, 25) AS i;

-- Sales
INSERT INTO sales.sales_regions (name, manager_id) VALUES ('DACH', 3), ('France', 10), ('Iberia', 17), ('North America', 24);
INSERT INTO sales.customers (company_name, industry, country_code, region_id, account_manager_id, credit_limit, segment, created_at)
SELECT (ARRAY['Acme','Globex','Initech','Umbrella','Stark','Wayne','Hooli','Vandelay','Soylent','Tyrell'])[1 + i % 10] || ' ' ||
       (ARRAY['GmbH','SA','Inc','Lda','AG'])[1 + i % 5] || ' ' || i,
       (ARRAY['retail','manufacturing','logistics','healthcare','software'])[1 + (i * 3) % 5],
       (ARRAY['DE','FR','PT','US','AT'])[1 + i % 5], (ARRAY[1,2,3,4,1])[1 + i % 5], 3 + (i % 6) * 7,
       (5 + i % 10) * 10000, (ARRAY['smb','smb','mid_market','enterprise'])[1 + i % 4],
       timestamptz '2021-01-01' + (i * 11) * interval '1 day'
FROM generate_series(1, 120) AS i;
INSERT INTO sales.customer_contacts (customer_id, full_name, email, job_role, is_primary)
SELECT c, 'Contact ' || c, 'contact' || c || '@customer.example', 'purchasing', true FROM generate_series(1, 120) AS c;
INSERT INTO sales.customer_addresses (customer_id, kind, street, city, postal_code, country_code)
SELECT c.customer_id, 'shipping', 'Main Street ' || c.customer_id, (ARRAY['Munich','Paris','Lisbon','Denver','Vienna'])[1 + c.customer_id % 5],
       lpad((c.customer_id * 97 % 99999)::text, 5, '0'), c.country_code FROM sales.customers c;
INSERT INTO sales.price_lists (name, valid_from) VALUES ('List price 2024', '2024-01-01'), ('Distributor 2024', '2024-01-01');
INSERT INTO sales.leads (company_name, contact_email, source, owner_id, status)
SELECT 'Prospect ' || i, 'lead' || i || '@prospect.example', (ARRAY['webinar','trade_show','paid_search'])[1 + i % 3], 3 + (i % 6) * 7,
       (ARRAY['new','contacted','qualified','disqualified'])[1 + i % 4] FROM generate_series(1, 40) AS i;
INSERT INTO sales.opportunities (customer_id, owner_id, name, stage, expected_value, probability, expected_close)
SELECT 1 + (i * 7) % 120, 3 + (i % 6) * 7, 'Deal ' || i, (ARRAY['prospecting','proposal','negotiation','won','lost'])[1 + i % 5],
       (1 + i % 9) * 5000, (ARRAY[10,40,70,100,0])[1 + i % 5], date '2024-03-01' + i * 4 FROM generate_series(1, 60) AS i;
INSERT INTO sales.quotes (opportunity_id, customer_id, issued_on, valid_until, total_amount, status)
SELECT o.opportunity_id, o.customer_id, o.expected_close - 30, o.expected_close, o.expected_value,
       CASE WHEN o.stage = 'won' THEN 'accepted' WHEN o.stage = 'lost' THEN 'declined' ELSE 'sent' END FROM sales.opportunities o;

-- Inventory
INSERT INTO inventory.units_of_measure VALUES ('pc', 'piece'), ('kg', 'kilogram'), ('l', 'litre'), ('box', 'box of 12');
INSERT INTO inventory.product_categories (name, parent_category_id) VALUES
  ('Hardware', NULL), ('Software', NULL), ('Accessories', 1), ('Networking', 1), ('Licences', 2), ('Consumables', NULL);
INSERT INTO inventory.products (sku, name, category_id, uom_code, list_price, standard_cost, weight_kg, discontinued)
SELECT 'SKU-' || lpad(i::text, 4, '0'),
       (ARRAY['Laptop','Monitor','Keyboard','Router','Switch','Cable','Licence','Toner','Dock','Headset'])[1 + i % 10] || ' model ' || i,
       (ARRAY[1,1,3,4,4,3,5,6,3,3])[1 + i % 10], CASE WHEN i % 10 = 7 THEN 'box' ELSE 'pc' END,
       (20 + (i * 37) % 980), round((20 + (i * 37) % 980) * 0.6, 2), ((i * 13) % 50) / 10.0, i % 19 = 0
FROM generate_series(1, 80) AS i;
INSERT INTO sales.price_list_items (price_list_id, product_id, unit_price)
SELECT 1, product_id, list_price FROM inventory.products UNION ALL SELECT 2, product_id, round(list_price * 0.85, 2) FROM inventory.products;
INSERT INTO inventory.warehouses (name, location_id, manager_id, capacity_m3) VALUES
  ('Berlin Central', 1, 5, 12000), ('Porto South', 4, 12, 8000), ('Austin West', 3, 19, 6000);
INSERT INTO inventory.bins (warehouse_id, code, zone) SELECT 1 + i % 3, 'A-' || i, (ARRAY['picking','bulk','returns'])[1 + i % 3] FROM generate_series(1, 30) AS i;
INSERT INTO inventory.stock_levels (warehouse_id, product_id, quantity_on_hand, quantity_reserved)
SELECT w, p, (p * w * 17) % 400, (p * w * 5) % 40 FROM generate_series(1, 3) AS w CROSS JOIN generate_series(1, 80) AS p;
INSERT INTO inventory.reorder_rules (product_id, warehouse_id, reorder_point, reorder_quantity)
SELECT p, 1, 50, 200 FROM generate_series(1, 80) AS p;
INSERT INTO inventory.lots (product_id, lot_number, expires_on) SELECT p, 'LOT-' || p, date '2026-01-01' + p * 5 FROM generate_series(8, 80, 10) AS p;
INSERT INTO inventory.stock_counts (warehouse_id, counted_on, counted_by) VALUES (1, '2024-06-30', 5), (2, '2024-06-30', 12);
INSERT INTO inventory.stock_count_lines (count_id, product_id, expected_quantity, counted_quantity)
SELECT 1 + p % 2, p, 100 + p, 100 + p - (p % 4) FROM generate_series(1, 40) AS p;
INSERT INTO inventory.transfers (product_id, from_warehouse_id, to_warehouse_id, quantity, requested_on, status)
SELECT p, 1, 2 + p % 2, 10 + p, date '2024-05-01' + p, 'done' FROM generate_series(1, 20) AS p;

-- Orders: 400 orders over 2024, 1-4 lines each
INSERT INTO sales.orders (customer_id, quote_id, sales_rep_id, order_date, status, shipping_address_id)
SELECT 1 + (i * 13) % 120, NULL, 3 + (i % 6) * 7, date '2024-01-01' + (i * 7) % 365,
       (ARRAY['delivered','delivered','shipped','confirmed','open','cancelled'])[1 + i % 6], 1 + (i * 13) % 120
FROM generate_series(1, 400) AS i;
INSERT INTO sales.order_lines (order_id, product_id, quantity, unit_price, discount_pct)
SELECT o.order_id, 1 + (o.order_id * 11 + l * 29) % 80, 1 + (o.order_id + l) % 9, p.list_price, (o.order_id % 3) * 5
FROM sales.orders o CROSS JOIN generate_series(1, 4) AS l
JOIN inventory.products p ON p.product_id = 1 + (o.order_id * 11 + l * 29) % 80
WHERE l <= 1 + o.order_id % 4;
UPDATE sales.orders o SET total_amount = s.total
FROM (SELECT order_id, sum(quantity * unit_price * (1 - discount_pct / 100)) AS total FROM sales.order_lines GROUP BY order_id) s
WHERE s.order_id = o.order_id;
INSERT INTO sales.shipments (order_id, warehouse_id, carrier, tracking_number, shipped_at, delivered_at)
SELECT order_id, 1 + order_id % 3, (ARRAY['DHL','UPS','DPD'])[1 + order_id % 3], 'TRK' || order_id,
       order_date + interval '2 days', CASE WHEN status = 'delivered' THEN order_date + interval '5 days' END
FROM sales.orders WHERE status IN ('shipped', 'delivered');
INSERT INTO sales.customer_invoices (order_id, customer_id, invoice_number, issued_on, due_on, amount, tax_amount, status)
SELECT order_id, customer_id, 'INV-2024-' || lpad(order_id::text, 5, '0'), order_date + 3, order_date + 33, total_amount,
       round(total_amount * 0.19, 2), CASE WHEN order_id % 5 = 0 THEN 'overdue' WHEN order_id % 3 = 0 THEN 'open' ELSE 'paid' END
FROM sales.orders WHERE status IN ('shipped', 'delivered', 'confirmed');
INSERT INTO sales.returns (order_id, reason, requested_on, refund_amount, status)
SELECT order_id, (ARRAY['damaged','wrong item','not needed'])[1 + order_id % 3], order_date + 10, round(total_amount * 0.5, 2), 'refunded'
FROM sales.orders WHERE status = 'delivered' AND order_id % 9 = 0;
INSERT INTO sales.campaigns (name, channel, budget, starts_on, ends_on) VALUES
  ('Spring webinar series', 'webinar', 15000, '2024-03-01', '2024-04-30'), ('Trade fair Hannover', 'trade_show', 60000, '2024-04-22', '2024-04-26'),
  ('Search ads Q3', 'paid_search', 25000, '2024-07-01', '2024-09-30');
INSERT INTO sales.commissions (employee_id, order_id, amount, paid)
SELECT sales_rep_id, order_id, round(total_amount * 0.03, 2), order_date < date '2024-10-01' FROM sales.orders WHERE status = 'delivered';

-- Procurement
INSERT INTO procurement.suppliers (name, country_code, payment_terms_days, rating)
SELECT (ARRAY['Northwind','Contoso','Fabrikam','Litware','Adatum','Proseware'])[1 + i % 6] || ' Supply ' || i,
       (ARRAY['DE','CN','US','PT','PL'])[1 + i % 5], (ARRAY[14,30,45,60])[1 + i % 4], 1 + (i * 3) % 5 FROM generate_series(1, 25) AS i;
INSERT INTO procurement.supplier_contacts (supplier_id, full_name, email) SELECT s, 'Supplier contact ' || s, 'sales' || s || '@supplier.example' FROM generate_series(1, 25) AS s;
INSERT INTO procurement.supplier_products (supplier_id, product_id, supplier_sku, unit_cost, lead_time_days)
SELECT 1 + p % 25, p, 'S-' || p, round(p2.standard_cost * 0.95, 2), 5 + p % 20 FROM generate_series(1, 80) AS p JOIN inventory.products p2 ON p2.product_id = p;
INSERT INTO procurement.contracts (supplier_id, starts_on, ends_on, annual_value, owner_id) SELECT s, '2024-01-01', '2025-12-31', s * 20000, 8 FROM generate_series(1, 10) AS s;
INSERT INTO procurement.requisitions (requested_by, department_id, requested_on, status, justification)
SELECT 2 + i % 50, 2 + i % 7, date '2024-01-10' + i * 6, (ARRAY['ordered','approved','submitted','rejected'])[1 + i % 4], 'Replenish stock' FROM generate_series(1, 50) AS i;
INSERT INTO procurement.requisition_lines (requisition_id, product_id, description, quantity, estimated_cost)
SELECT r, 1 + (r * 7) % 80, 'Restock', 10 + r % 30, 100 + r * 10 FROM generate_series(1, 50) AS r;
INSERT INTO procurement.purchase_orders (supplier_id, requisition_id, buyer_id, ordered_on, expected_on, status)
SELECT 1 + (r * 3) % 25, r, 8, date '2024-01-15' + r * 6, date '2024-01-15' + r * 6 + 14, (ARRAY['received','received','partially_received','open'])[1 + r % 4]
FROM generate_series(1, 50) AS r;
INSERT INTO procurement.purchase_order_lines (po_id, product_id, quantity, unit_cost)
SELECT po_id, 1 + (po_id * 7 + l * 3) % 80, 20 + (po_id * l) % 60, 10 + (po_id * 13 + l) % 400 FROM procurement.purchase_orders CROSS JOIN generate_series(1, 3) AS l;
UPDATE procurement.purchase_orders po SET total_amount = s.total
FROM (SELECT po_id, sum(quantity * unit_cost) AS total FROM procurement.purchase_order_lines GROUP BY po_id) s WHERE s.po_id = po.po_id;
INSERT INTO procurement.goods_receipts (po_id, warehouse_id, received_on, received_by)
SELECT po_id, 1 + po_id % 3, expected_on + po_id % 5, 5 FROM procurement.purchase_orders WHERE status <> 'open';
INSERT INTO procurement.goods_receipt_lines (receipt_id, po_line_id, quantity_received, quantity_rejected)
SELECT g.receipt_id, l.po_line_id, l.quantity - l.po_line_id % 3, l.po_line_id % 3
FROM procurement.goods_receipts g JOIN procurement.purchase_order_lines l ON l.po_id = g.po_id;
INSERT INTO procurement.supplier_invoices (supplier_id, po_id, invoice_number, received_on, due_on, amount, status)
SELECT supplier_id, po_id, 'SUP-' || po_id, ordered_on + 20, ordered_on + 50, total_amount, (ARRAY['paid','paid','approved','disputed'])[1 + po_id % 4]
FROM procurement.purchase_orders WHERE status <> 'open';
INSERT INTO procurement.supplier_evaluations (supplier_id, evaluated_on, on_time_pct, quality_score, evaluator_id)
SELECT s, '2024-12-15', 70 + (s * 7) % 30, 1 + (s * 2) % 5, 8 FROM generate_series(1, 25) AS s;

-- Finance
INSERT INTO finance.currencies VALUES ('EUR', 'Euro'), ('USD', 'US Dollar'), ('GBP', 'Pound Sterling');
INSERT INTO finance.exchange_rates (currency_code, rate_date, rate_to_eur)
SELECT c, d, CASE c WHEN 'EUR' THEN 1 WHEN 'USD' THEN 0.92 ELSE 1.17 END
FROM unnest(ARRAY['EUR','USD','GBP']) AS c CROSS JOIN generate_series(date '2024-12-01', date '2024-12-31', interval '1 day') AS d;
INSERT INTO finance.fiscal_periods (fiscal_year, period_number, starts_on, ends_on, closed)
SELECT 2024, m, make_date(2024, m, 1), (make_date(2024, m, 1) + interval '1 month - 1 day')::date, m < 12 FROM generate_series(1, 12) AS m;
INSERT INTO finance.accounts (account_number, name, account_type) VALUES
  ('1000', 'Cash at bank', 'asset'), ('1200', 'Accounts receivable', 'asset'), ('2000', 'Accounts payable', 'liability'),
  ('3000', 'Share capital', 'equity'), ('4000', 'Product revenue', 'revenue'), ('5000', 'Cost of goods sold', 'expense'),
  ('6000', 'Salaries', 'expense'), ('6100', 'Travel', 'expense'), ('6200', 'Rent', 'expense');
INSERT INTO finance.cost_centers (cost_center_code, name, department_id) SELECT cost_center, name, department_id FROM hr.departments;
INSERT INTO finance.journal_entries (period_id, posted_on, description, source, posted_by)
SELECT 1 + (i - 1) % 12, make_date(2024, 1 + (i - 1) % 12, 28), 'Monthly posting ' || i, (ARRAY['sales','purchasing','payroll','manual'])[1 + i % 4], 6
FROM generate_series(1, 48) AS i;
INSERT INTO finance.journal_lines (entry_id, account_id, cost_center_code, debit, credit)
SELECT entry_id, CASE source WHEN 'sales' THEN 2 WHEN 'purchasing' THEN 6 WHEN 'payroll' THEN 7 ELSE 9 END, 'CC' || (1 + entry_id % 8) || '00', 1000 + entry_id * 37, 0 FROM finance.journal_entries
UNION ALL
SELECT entry_id, CASE source WHEN 'sales' THEN 5 WHEN 'purchasing' THEN 3 ELSE 1 END, NULL, 0, 1000 + entry_id * 37 FROM finance.journal_entries;
INSERT INTO finance.bank_accounts (bank_name, iban, currency_code, gl_account_id) VALUES
  ('Deutsche Bank', 'DE89370400440532013000', 'EUR', 1), ('Chase', 'US00CHASE0000000001', 'USD', 1);
INSERT INTO finance.customer_payments (invoice_id, bank_account_id, received_on, amount, method)
SELECT invoice_id, 1, issued_on + 20, amount + tax_amount, (ARRAY['bank_transfer','card','direct_debit'])[1 + invoice_id % 3]
FROM sales.customer_invoices WHERE status = 'paid';
INSERT INTO finance.supplier_payments (supplier_invoice_id, bank_account_id, paid_on, amount)
SELECT supplier_invoice_id, 1, due_on - 2, amount FROM procurement.supplier_invoices WHERE status = 'paid';
INSERT INTO finance.budgets (fiscal_year, cost_center_code, account_id, amount)
SELECT 2024, cost_center_code, a, 50000 + a * 10000 FROM finance.cost_centers CROSS JOIN unnest(ARRAY[7, 8, 9]) AS a;
INSERT INTO finance.expense_reports (employee_id, submitted_on, total_amount, status, approved_by)
SELECT 2 + i % 55, date '2024-02-01' + i * 9, 0, (ARRAY['reimbursed','approved','submitted','rejected'])[1 + i % 4], 1 FROM generate_series(1, 36) AS i;
INSERT INTO finance.expense_items (expense_report_id, category, spent_on, amount, merchant)
SELECT r, (ARRAY['travel','lodging','meals','transport'])[1 + (r + k) % 4], date '2024-02-01' + r * 9 - 2, 20 + (r * k * 13) % 400, 'Merchant ' || k
FROM generate_series(1, 36) AS r CROSS JOIN generate_series(1, 3) AS k;
UPDATE finance.expense_reports r SET total_amount = s.total FROM (SELECT expense_report_id, sum(amount) total FROM finance.expense_items GROUP BY 1) s
WHERE s.expense_report_id = r.expense_report_id;
INSERT INTO finance.tax_rates (country_code, name, rate_pct, valid_from) VALUES
  ('DE', 'VAT standard', 19, '2007-01-01'), ('FR', 'TVA normale', 20, '2014-01-01'), ('PT', 'IVA normal', 23, '2011-01-01'), ('AT', 'USt', 20, '1995-01-01');
INSERT INTO finance.assets (name, acquired_on, cost, useful_life_months, custodian_id)
SELECT 'Laptop ' || i, date '2023-01-01' + i * 10, 1500, 36, i FROM generate_series(2, 40) AS i;

-- Support
INSERT INTO support.sla_policies (name, priority, first_response_hours, resolution_hours) VALUES
  ('Urgent', 'urgent', 1, 8), ('High', 'high', 4, 24), ('Normal', 'normal', 8, 72), ('Low', 'low', 24, 168);
INSERT INTO support.support_teams (name, lead_id) VALUES ('Tier 1', 6), ('Tier 2', 13), ('Billing desk', 20);
INSERT INTO support.agents (employee_id, team_id) SELECT e, 1 + e % 3 FROM generate_series(6, 60, 7) AS e;
INSERT INTO support.ticket_categories (name, team_id) VALUES ('Billing', 3), ('Delivery', 1), ('Product defect', 2), ('Account', 1);
INSERT INTO support.tickets (customer_id, contact_id, order_id, category_id, sla_id, assigned_agent_id, subject, priority, status, channel, opened_at, first_response_at, resolved_at)
SELECT 1 + (i * 17) % 120, 1 + (i * 17) % 120, 1 + (i * 3) % 400, 1 + i % 4, 1 + i % 4, 1 + i % 8,
       (ARRAY['Invoice wrong','Parcel late','Device broken','Cannot log in'])[1 + i % 4],
       (ARRAY['urgent','high','normal','low'])[1 + i % 4], (ARRAY['resolved','closed','open','pending','resolved'])[1 + i % 5],
       (ARRAY['email','phone','chat','portal'])[1 + i % 4],
       timestamptz '2024-01-02 09:00+00' + i * interval '17 hours',
       timestamptz '2024-01-02 09:00+00' + i * interval '17 hours' + (1 + i % 10) * interval '1 hour',
       CASE WHEN i % 5 IN (0, 1, 4) THEN timestamptz '2024-01-02 09:00+00' + i * interval '17 hours' + (5 + i % 60) * interval '1 hour' END
FROM generate_series(1, 300) AS i;
INSERT INTO support.ticket_messages (ticket_id, author_type, author_agent_id, body, sent_at)
SELECT ticket_id, 'customer', NULL, 'Hello, ' || subject, opened_at FROM support.tickets
UNION ALL SELECT ticket_id, 'agent', assigned_agent_id, 'We are on it.', first_response_at FROM support.tickets;
INSERT INTO support.ticket_status_history (ticket_id, from_status, to_status, changed_at, changed_by)
SELECT ticket_id, 'open', status, COALESCE(resolved_at, first_response_at), assigned_agent_id FROM support.tickets WHERE status <> 'open';
INSERT INTO support.satisfaction_surveys (ticket_id, score, answered_at)
SELECT ticket_id, 1 + (ticket_id * 7) % 5, resolved_at + interval '1 day' FROM support.tickets WHERE resolved_at IS NOT NULL AND ticket_id % 2 = 0;
INSERT INTO support.kb_articles (title, category_id, author_agent_id, published_at, views) VALUES
  ('How to read your invoice', 1, 1, '2024-01-10', 812), ('Tracking a delivery', 2, 2, '2024-01-12', 1290),
  ('Returning a defective device', 3, 3, '2024-02-01', 455), ('Resetting your password', 4, 4, '2024-02-03', 2210);
INSERT INTO support.ticket_article_links (ticket_id, article_id) SELECT ticket_id, category_id FROM support.tickets WHERE ticket_id % 3 = 0;
INSERT INTO support.escalations (ticket_id, escalated_to, reason)
SELECT ticket_id, 13, 'SLA breach risk' FROM support.tickets WHERE priority = 'urgent' AND ticket_id % 4 = 0;
INSERT INTO support.warranty_claims (ticket_id, product_id, order_id, claimed_on, approved)
SELECT ticket_id, 1 + ticket_id % 80, order_id, opened_at::date, ticket_id % 3 <> 0 FROM support.tickets WHERE category_id = 3 AND ticket_id % 2 = 0;

ANALYZE;
