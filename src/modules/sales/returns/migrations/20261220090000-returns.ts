/**
 * Returns (RMA): goods a customer sends back from a delivered shipment. Each line is one shipment
 * line that left stock, so it keeps the exact cost that line left with (it comes back in at that
 * cost), when it left (a receipt is never dated before), and the order line's unit price (the
 * credit). A line of a request that spans several shipment lines of one product is stored as one
 * line per shipment line.
 */
export const sql = `
CREATE TABLE returns (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  number text NOT NULL,
  status text NOT NULL DEFAULT 'Requested',
  order_id uuid REFERENCES orders (id),
  shipment_id uuid REFERENCES shipments (id),
  customer_id uuid,
  reason text NOT NULL,
  notes text,
  value numeric(18, 4) NOT NULL DEFAULT 0,
  received_at timestamptz,
  written_off_at timestamptz,
  cancelled_at timestamptz,
  created_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX returns_number_key ON returns (business_id, number);
CREATE INDEX returns_business_idx ON returns (business_id, date_created DESC);
-- The order's credit and its list of returns.
CREATE INDEX returns_order_idx ON returns (order_id) WHERE order_id IS NOT NULL;

CREATE TABLE return_lines (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  return_id uuid NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
  line_number integer NOT NULL,
  shipment_line_id uuid NOT NULL REFERENCES shipment_lines (id),
  order_line_id uuid REFERENCES order_lines (id) ON DELETE SET NULL,
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  unit_price numeric(18, 4) NOT NULL DEFAULT 0,
  unit_cost numeric(28, 10) NOT NULL,
  value numeric(18, 4) NOT NULL,
  left_at timestamptz NOT NULL,
  reason text,
  ledger_entry_id uuid,
  UNIQUE (return_id, line_number)
);
-- What has been returned of a shipment line already.
CREATE INDEX return_lines_shipment_line_idx ON return_lines (shipment_line_id);
`
