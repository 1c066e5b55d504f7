/**
 * What a shipment carries: a product and a quantity, from an order's line or on its own, and the
 * package it was packed into. Dispatching the shipment's plan issues each line from stock: the
 * ledger entry and the exact moving-average cost it left with are kept, so goods that come back
 * (a cancelled shipment, a return) go back in at that cost. An edited order's lines are replaced,
 * so a shipment line keeps its product and quantity and loses only the link.
 */
export const sql = `
CREATE TABLE shipment_lines (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  shipment_id uuid NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  line_number integer NOT NULL,
  order_line_id uuid REFERENCES order_lines (id) ON DELETE SET NULL,
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  package text,
  unit_cost numeric(28, 10),
  ledger_entry_id uuid,
  returned_entry_id uuid,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shipment_id, line_number)
);
CREATE INDEX shipment_lines_order_line_idx ON shipment_lines (order_line_id);
CREATE INDEX shipment_lines_product_idx ON shipment_lines (business_id, product_id);
`
