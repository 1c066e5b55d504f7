/**
 * Purchase orders, their lines and their receipts. A purchase order is numbered from the business's
 * sequence (PO-000001). A line carries the product, the quantity and unit cost ordered and what has
 * been received so far; at most one line per product, so a receipt may name a line by its product.
 * A receipt keeps, per line, the stock ledger entry it posted and, once reversed, the reversing
 * entry: receipts are never deleted. `overdue_notified_at` records that PurchaseOrderOverdue was
 * published, so it is published once per purchase order.
 */
export const sql = `
CREATE TABLE purchase_orders (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  number text NOT NULL,
  supplier_id uuid NOT NULL REFERENCES suppliers (id),
  status text NOT NULL DEFAULT 'Draft'
    CHECK (status IN ('Draft', 'Submitted', 'PartiallyReceived', 'Received', 'Closed', 'Cancelled')),
  currency text NOT NULL,
  expected_date date,
  notes text,
  total numeric(18, 4) NOT NULL DEFAULT 0,
  submitted_at timestamptz,
  received_at timestamptz,
  closed_at timestamptz,
  cancelled_at timestamptz,
  overdue_notified_at timestamptz,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX purchase_orders_number_key ON purchase_orders (business_id, number);
CREATE INDEX purchase_orders_list_idx ON purchase_orders (business_id, date_created DESC, id);
CREATE INDEX purchase_orders_status_idx ON purchase_orders (business_id, status, expected_date);
CREATE INDEX purchase_orders_supplier_idx ON purchase_orders (business_id, supplier_id, date_created DESC);
CREATE INDEX purchase_orders_expected_idx ON purchase_orders (business_id, expected_date);
CREATE INDEX purchase_orders_overdue_idx ON purchase_orders (business_id, expected_date)
  WHERE status IN ('Submitted', 'PartiallyReceived') AND overdue_notified_at IS NULL;

CREATE TABLE purchase_order_lines (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
  line_number integer NOT NULL,
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  unit_cost numeric(18, 6) NOT NULL CHECK (unit_cost >= 0),
  line_total numeric(18, 4) GENERATED ALWAYS AS (round(quantity * unit_cost, 4)) STORED,
  received_quantity numeric(18, 4) NOT NULL DEFAULT 0 CHECK (received_quantity >= 0),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX purchase_order_lines_number_key ON purchase_order_lines (purchase_order_id, line_number);
CREATE UNIQUE INDEX purchase_order_lines_product_key ON purchase_order_lines (purchase_order_id, product_id);
CREATE INDEX purchase_order_lines_product_idx ON purchase_order_lines (product_id);

CREATE TABLE purchase_order_receipts (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
  effective_date timestamptz NOT NULL,
  notes text,
  created_by_user_id uuid,
  reversed_at timestamptz,
  reversal_effective_date timestamptz,
  reversed_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_order_receipts_order_idx ON purchase_order_receipts (purchase_order_id, effective_date, id);

CREATE TABLE purchase_order_receipt_lines (
  id uuid PRIMARY KEY,
  receipt_id uuid NOT NULL REFERENCES purchase_order_receipts (id) ON DELETE CASCADE,
  purchase_order_line_id uuid NOT NULL REFERENCES purchase_order_lines (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  unit_cost numeric(18, 6) NOT NULL,
  ledger_entry_id uuid NOT NULL,
  reversal_entry_id uuid
);
CREATE INDEX purchase_order_receipt_lines_receipt_idx ON purchase_order_receipt_lines (receipt_id);
CREATE INDEX purchase_order_receipt_lines_line_idx ON purchase_order_receipt_lines (purchase_order_line_id);
`
