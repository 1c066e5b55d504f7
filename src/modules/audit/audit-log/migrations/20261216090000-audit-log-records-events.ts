/**
 * The audit log records the domain events too (audit-events.handler.ts): an event's entry keeps
 * its payload, the one the notification and the webhook body are made from.
 */
export const sql = `
ALTER TABLE audit_log ADD COLUMN payload jsonb;
`
