/**
 * What the dashboard's fulfilment figures read by: shipments by dispatch instant (revenue from what
 * shipped), an order's shipments (on time in full), and the open backorders of a business.
 */
export const sql = `
CREATE INDEX shipments_insights_dispatched_idx ON shipments (business_id, dispatched_at) WHERE dispatched_at IS NOT NULL;
CREATE INDEX shipments_order_idx ON shipments (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX stock_reservations_backordered_idx ON stock_reservations (business_id) WHERE backordered > 0;
`
