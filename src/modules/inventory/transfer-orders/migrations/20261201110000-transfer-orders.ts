/**
 * Transfer orders: stock moved between two businesses of the organisation. The lines name the
 * product on each side (products are per business) and keep the exact unit cost each left with;
 * receipts record what arrived when, so in transit is shipped minus received.
 */
export const sql = `
CREATE TABLE transfer_orders (
  id uuid PRIMARY KEY,
  number text NOT NULL,
  source_business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  destination_business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'Draft',
  notes text,
  shipped_at timestamptz,
  received_at timestamptz,
  cancelled_at timestamptz,
  shipment_id uuid,
  created_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  CHECK (source_business_id <> destination_business_id)
);
CREATE UNIQUE INDEX transfer_orders_number_key ON transfer_orders (source_business_id, number);
CREATE INDEX transfer_orders_source_idx ON transfer_orders (source_business_id, date_created DESC);
CREATE INDEX transfer_orders_destination_idx ON transfer_orders (destination_business_id, date_created DESC);
-- The in-transit read: only shipped orders not yet wholly received.
CREATE INDEX transfer_orders_source_transit_idx ON transfer_orders (source_business_id)
  WHERE status IN ('Shipped', 'PartiallyReceived');
CREATE INDEX transfer_orders_destination_transit_idx ON transfer_orders (destination_business_id)
  WHERE status IN ('Shipped', 'PartiallyReceived');

CREATE TABLE transfer_order_lines (
  id uuid PRIMARY KEY,
  transfer_order_id uuid NOT NULL REFERENCES transfer_orders (id) ON DELETE CASCADE,
  line_number integer NOT NULL,
  source_product_id uuid NOT NULL REFERENCES products (id),
  destination_product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  -- The exact moving-average cost the line left the source with (set when shipped).
  unit_cost numeric,
  quantity_received numeric(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_received >= 0 AND quantity_received <= quantity),
  UNIQUE (transfer_order_id, line_number)
);
CREATE INDEX transfer_order_lines_source_product_idx ON transfer_order_lines (source_product_id);
CREATE INDEX transfer_order_lines_destination_product_idx ON transfer_order_lines (destination_product_id);

CREATE TABLE transfer_order_receipts (
  id uuid PRIMARY KEY,
  transfer_order_id uuid NOT NULL REFERENCES transfer_orders (id) ON DELETE CASCADE,
  effective_date timestamptz NOT NULL,
  created_by_user_id uuid,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transfer_order_receipts_order_idx ON transfer_order_receipts (transfer_order_id, date_created);

CREATE TABLE transfer_order_receipt_lines (
  receipt_id uuid NOT NULL REFERENCES transfer_order_receipts (id) ON DELETE CASCADE,
  line_id uuid NOT NULL REFERENCES transfer_order_lines (id) ON DELETE CASCADE,
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (receipt_id, line_id)
);
CREATE INDEX transfer_order_receipt_lines_line_idx ON transfer_order_receipt_lines (line_id);
`
