/**
 * The organisation's audit log, and the trigger function that writes it: a row per changed row of
 * the organisation's tables, in the transaction of the change (see attach-audit-triggers.ts for
 * which tables). The function names this schema's audit_log explicitly (requests run with the
 * default search path), so it is generated here with the schema's name.
 */
export const sql = `
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  occurred_at timestamptz NOT NULL DEFAULT now(),
  business_id uuid,
  actor_type text NOT NULL,
  actor_id uuid,
  entity_type text NOT NULL,
  entity_id text,
  action text NOT NULL,
  changes jsonb NOT NULL,
  request_id text
);
CREATE INDEX audit_log_business_occurred_idx ON audit_log (business_id, occurred_at DESC, id);
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, occurred_at DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, occurred_at DESC);

DO $do$
BEGIN
  EXECUTE format($fn$
CREATE FUNCTION %1$I.audit_row_change() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  before jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  after jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  changes jsonb := global.audit_diff(before, after);
  changed jsonb := coalesce(after, before);
  actor text := coalesce(current_setting('cartage.actor', true), '');
BEGIN
  IF changes IS NULL THEN RETURN NULL; END IF;
  INSERT INTO %1$I.audit_log (business_id, actor_type, actor_id, entity_type, entity_id, action, changes, request_id)
  VALUES (
    (CASE WHEN TG_TABLE_NAME = 'businesses' THEN changed ->> 'id' ELSE changed ->> 'business_id' END)::uuid,
    coalesce(nullif(split_part(actor, '|', 1), ''), 'System'),
    nullif(split_part(actor, '|', 2), '')::uuid,
    TG_ARGV[0], changed ->> 'id', global.audit_action(TG_OP, changes), changes,
    nullif(split_part(actor, '|', 3), ''));
  RETURN NULL;
END $body$
$fn$, current_schema());
END $do$;
`
