/**
 * Indexes for the order list and the customer analytics: filtering orders by status (and the
 * analytics' Confirmed/Fulfilled aggregate per business), and sorting by dateCreated.
 */
export const sql = `
CREATE INDEX orders_status_idx ON orders (business_id, status, order_date DESC);
CREATE INDEX orders_created_idx ON orders (business_id, date_created DESC);
`
