/**
 * The request's actor, read in one place: the `cartage.actor` setting (db/actor.ts) is
 * `<kind>|<id>|<request id>`, and the row triggers of every organisation schema, the global
 * tables' trigger and the domain events' entries (audit-events.handler.ts) all take their actor
 * columns from this function. No actor set: the System.
 */
export const sql = `
CREATE FUNCTION audit_actor(OUT actor_type text, OUT actor_id uuid, OUT request_id text) LANGUAGE sql STABLE AS $f$
  SELECT coalesce(nullif(split_part(a, '|', 1), ''), 'System'),
    nullif(split_part(a, '|', 2), '')::uuid,
    nullif(split_part(a, '|', 3), '')
  FROM coalesce(current_setting('cartage.actor', true), '') AS a
$f$;

CREATE OR REPLACE FUNCTION audit_global_row_change() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE
  before jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  after jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  changes jsonb := global.audit_diff(before, after);
  changed jsonb := coalesce(after, before);
  target text;
BEGIN
  IF changes IS NULL THEN RETURN NULL; END IF;
  SELECT o.schema_name INTO target FROM global.organizations o WHERE o.id = (changed ->> 'organization_id')::uuid;
  IF target IS NULL OR to_regclass(format('%I.audit_log', target)) IS NULL THEN RETURN NULL; END IF;
  EXECUTE format('INSERT INTO %I.audit_log (business_id, actor_type, actor_id, entity_type, entity_id, action, changes, request_id)
    SELECT $1, a.actor_type, a.actor_id, $2, $3, $4, $5, a.request_id FROM global.audit_actor() a', target)
  USING (changed ->> 'business_id')::uuid, TG_ARGV[0], changed ->> 'id', global.audit_action(TG_OP, changes), changes;
  RETURN NULL;
END $f$;
`
