/**
 * A transfer belongs to two businesses. These views give each transfer (and line) once per side,
 * with that side's business as business_id, so whatever reads rows by business_id (the SQL
 * console's views) sees the transfers a business sends and receives, and which side it is on.
 */
export const sql = `
CREATE VIEW transfer_order_sides AS
  SELECT t.source_business_id AS business_id, 'Outgoing'::text AS direction, t.id, t.number,
    t.source_business_id, t.destination_business_id, t.status, t.shipped_at, t.received_at, t.cancelled_at,
    t.date_created, t.date_modified
  FROM transfer_orders t
  UNION ALL
  SELECT t.destination_business_id, 'Incoming'::text, t.id, t.number,
    t.source_business_id, t.destination_business_id, t.status, t.shipped_at, t.received_at, t.cancelled_at,
    t.date_created, t.date_modified
  FROM transfer_orders t;

CREATE VIEW transfer_order_line_sides AS
  SELECT s.business_id, s.direction, l.id, l.transfer_order_id, s.number, s.status, l.line_number,
    l.source_product_id, l.destination_product_id, l.quantity, l.unit_cost, l.quantity_received,
    CASE WHEN s.status IN ('Shipped', 'PartiallyReceived') THEN l.quantity - l.quantity_received ELSE 0 END
      AS quantity_in_transit
  FROM transfer_order_lines l
  JOIN transfer_order_sides s ON s.id = l.transfer_order_id;
`
