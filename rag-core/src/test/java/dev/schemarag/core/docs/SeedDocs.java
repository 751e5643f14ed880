package dev.schemarag.core.docs;

/** Schema docs in the seed format, shared by the parser and chunker tests. */
public final class SeedDocs {
  private SeedDocs() {}

  public static final String ORDERS = """
      # Table: orders

      ## Purpose
      One row per customer order, from checkout to delivery.

      ## Business Context
      Sales uses orders to track revenue; finance reconciles them with invoices.

      ## Columns

      ### order_id
      - Type: bigint
      - Description: Surrogate key of the order
      - Nullable: no

      ### customer_id
      - Type: bigint
      - Description: The customer who placed the order
      - Notes: references customers.customer_id

      ### status
      - Type: text
      - Description: Where the order is in its life cycle
      - Domain: pending, paid, shipped, delivered, cancelled

      ### total_amount
      - Type: numeric(12,2)
      - Description: Order total including tax

      ### ordered_at
      - Type: timestamptz
      - Description: When the customer checked out

      ## Common Queries

      ### Query Pattern: Revenue per month
      ```sql
      SELECT date_trunc('month', ordered_at) AS month, sum(total_amount) FROM orders GROUP BY 1 ORDER BY 1
      ```
      - Use case: monthly revenue report
      - Returns: one row per month

      ### Query Pattern: Open orders of a customer
      ```sql
      SELECT * FROM orders WHERE customer_id = $1 AND status IN ('pending', 'paid')
      ```
      - Use case: customer support looks up what a customer is waiting for

      ### Query Pattern: Orders by status
      ```sql
      SELECT status, count(*) FROM orders GROUP BY status
      ```
      - Use case: operations dashboard

      ## Relationships
      - `customer_id` references `customers`.customer_id
      - order_items.order_id references orders

      ## Examples
      - Order 1001 was paid on 2024-03-01 and shipped the next day.

      ## Notes
      Cancelled orders keep their rows.
      """;

  public static final String CUSTOMERS = """
      # Table: customers

      ## Purpose
      People and companies that buy from us.

      ## Columns

      ### customer_id
      - Type: bigint
      - Description: Surrogate key

      ### email
      - Type: text
      - Description: Login and contact address
      """;

  public static final String UNCLOSED_FENCE = """
      # Table: broken

      ## Common Queries

      ### Query Pattern: never closed
      ```sql
      SELECT 1
      """;
}
