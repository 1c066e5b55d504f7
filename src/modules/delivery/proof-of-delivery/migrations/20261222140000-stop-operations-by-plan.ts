/**
 * A plan's timeline reads every stop operation recorded on the plan (arrivals, deliveries,
 * failures), including those of shipments that have since left it: one index on the plan for all
 * kinds, which also serves the failed-only lookups the partial index it replaces was for.
 */
export const sql = `
CREATE INDEX stop_operations_plan_idx ON stop_operations (delivery_plan_id, occurred_at);
DROP INDEX stop_operations_plan_failed_idx;
`
