/**
 * What a confirmed order holds of the fulfilling business's stock: per order line of a stocked
 * product, the quantity reserved now and the part that was short at confirmation (backordered).
 * A line's row goes with the line (an edited order re-reserves its new lines) and with its order.
 * Available stock is on hand less the reserved quantities of the product.
 */
export const sql = `
CREATE TABLE stock_reservations (
  id uuid PRIMARY KEY,
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  order_line_id uuid NOT NULL REFERENCES order_lines (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id),
  quantity numeric(18, 4) NOT NULL CHECK (quantity >= 0),
  backordered numeric(18, 4) NOT NULL DEFAULT 0 CHECK (backordered >= 0),
  shipped numeric(18, 4) NOT NULL DEFAULT 0 CHECK (shipped >= 0),
  date_created timestamptz NOT NULL DEFAULT now(),
  date_modified timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX stock_reservations_line_key ON stock_reservations (order_line_id);
CREATE INDEX stock_reservations_order_idx ON stock_reservations (order_id);
CREATE INDEX stock_reservations_product_idx ON stock_reservations (business_id, product_id) WHERE quantity > 0;
`
