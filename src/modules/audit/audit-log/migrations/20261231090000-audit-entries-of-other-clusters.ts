/**
 * Roles, memberships and API keys live in the global schema on the main cluster, so their trigger
 * runs there; an organisation on another cluster keeps its audit_log on that cluster, out of the
 * trigger's reach. Its entries now wait in `audit_log_outbox` (on main, written in the transaction
 * of the change, with its actor and instant) until the application copies them into the
 * organisation's log (audit-log.forward.ts: before the log is read, and every few seconds).
 * An organisation on main is logged directly, as before.
 */
export const sql = `
CREATE TABLE audit_log_outbox (
  -- The entry's id in the organisation's log too: copying it twice keeps one.
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  schema_name text NOT NULL,
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
CREATE INDEX audit_log_outbox_schema_idx ON audit_log_outbox (schema_name, occurred_at);

CREATE OR REPLACE FUNCTION audit_global_row_change() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE
  before jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  after jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  changes jsonb := global.audit_diff(before, after);
  changed jsonb := coalesce(after, before);
  target text;
  placed text;
BEGIN
  IF changes IS NULL THEN RETURN NULL; END IF;
  SELECT o.schema_name, o.cluster INTO target, placed FROM global.organizations o
    WHERE o.id = (changed ->> 'organization_id')::uuid;
  IF target IS NULL THEN RETURN NULL; END IF;
  IF to_regclass(format('%I.audit_log', target)) IS NOT NULL THEN
    EXECUTE format('INSERT INTO %I.audit_log (business_id, actor_type, actor_id, entity_type, entity_id, action, changes, request_id)
      SELECT $1, a.actor_type, a.actor_id, $2, $3, $4, $5, a.request_id FROM global.audit_actor() a', target)
    USING (changed ->> 'business_id')::uuid, TG_ARGV[0], changed ->> 'id', global.audit_action(TG_OP, changes), changes;
  ELSIF placed <> 'main' THEN
    INSERT INTO global.audit_log_outbox (schema_name, business_id, actor_type, actor_id, entity_type, entity_id, action, changes, request_id)
    SELECT target, (changed ->> 'business_id')::uuid, a.actor_type, a.actor_id, TG_ARGV[0], changed ->> 'id',
      global.audit_action(TG_OP, changes), changes, a.request_id
    FROM global.audit_actor() a;
  END IF;
  -- Otherwise the organisation is being registered on main and its log is not made yet.
  RETURN NULL;
END $f$;
`
