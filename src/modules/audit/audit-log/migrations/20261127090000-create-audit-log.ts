/**
 * The organisation's audit log: a row per changed row of the organisation's tables, written by the
 * trigger that attach-audit-triggers.ts installs, in the transaction of the change.
 */
export const sql = `
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The order entries were written in, for entries of one instant (the rows of one statement).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  -- When the row changed, not when its transaction began: a record created then moved in one
  -- transaction reads in that order.
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  business_id uuid,
  actor_type text NOT NULL,
  actor_id uuid,
  entity_type text NOT NULL,
  entity_id text,
  action text NOT NULL,
  changes jsonb NOT NULL,
  request_id text
);
CREATE INDEX audit_log_business_occurred_idx ON audit_log (business_id, occurred_at DESC, seq);
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, occurred_at DESC, seq);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, occurred_at DESC);

`
