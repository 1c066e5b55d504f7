/**
 * Indexes for the dashboard insights: each reads one date range of a business with index-only
 * scans (the columns it aggregates are included), so a month of a business with a million
 * shipments is counted without visiting the table.
 */
export const sql = `
CREATE INDEX orders_insights_idx ON orders (business_id, order_date)
  INCLUDE (status, currency, total, customer_id);
CREATE INDEX shipments_insights_created_idx ON shipments (business_id, date_created) INCLUDE (status);
CREATE INDEX shipments_insights_delivered_idx ON shipments (business_id, delivered_at)
  INCLUDE (status, scheduled_date) WHERE delivered_at IS NOT NULL;
`
