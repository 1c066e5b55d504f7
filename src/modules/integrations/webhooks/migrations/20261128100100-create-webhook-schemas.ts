/**
 * The organisation schemas that have webhook endpoints: the delivery worker visits only these,
 * instead of every organisation's schema on every poll. A row is added (never removed while the
 * schema lives) when a business of the organisation creates its first endpoint.
 */
export const sql = `
CREATE TABLE webhook_schemas (
  schema_name text PRIMARY KEY,
  date_created timestamptz NOT NULL DEFAULT now()
);
`
