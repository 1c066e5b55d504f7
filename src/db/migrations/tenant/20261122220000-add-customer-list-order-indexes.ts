/**
 * Customer lists at scale: the default order (newest first, id as tie-break) and `$filter` /
 * `$orderby` on name read an index in list order instead of sorting every customer of the business.
 */
export const sql = `
CREATE INDEX customers_created_order_idx ON customers (business_id, date_created DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX customers_name_order_idx ON customers (business_id, name, id) WHERE deleted_at IS NULL;
`
