/**
 * The audit log's shared functions (global schema) and its triggers on the organisation-wide
 * tables of the global schema that a member changes: roles, memberships, API keys. Each
 * organisation's own tables get their trigger from the tenant migration and the attach step.
 *
 * - audit_entity_type: `delivery_plans` -> `DeliveryPlan` (the entity a table holds).
 * - audit_diff: the changed columns as {column: {before, after}}, without the columns that hold
 *   secrets (matched by name) or only bookkeeping: timestamps, a product's on_hand and average_cost
 *   (derived from its stock ledger, which is the history of every movement), a webhook endpoint's
 *   consecutive_failures (its delivery log says why); null when nothing worth recording changed.
 * - audit_action: Created, Updated, StatusChanged (status changed), Deleted (also a soft delete).
 * - audit_global_row_change: writes into the organisation's own audit_log (found from the row's
 *   organization_id), when that schema has one yet (a registration writes its membership first).
 * The actor comes from the session setting `cartage.actor` (db/actor.ts): `<kind>|<id>|<request id>`.
 */
export const sql = `
CREATE FUNCTION audit_entity_type(table_name text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE
  parts text[] := string_to_array(table_name, '_');
  n int := array_length(parts, 1);
BEGIN
  parts[n] := CASE
    WHEN parts[n] ~ 'ies$' THEN regexp_replace(parts[n], 'ies$', 'y')
    WHEN parts[n] ~ '(ss|x|ch|sh)es$' THEN regexp_replace(parts[n], 'es$', '')
    WHEN parts[n] ~ '[^s]s$' THEN regexp_replace(parts[n], 's$', '')
    ELSE parts[n] END;
  RETURN (SELECT string_agg(initcap(p), '' ORDER BY i) FROM unnest(parts) WITH ORDINALITY AS u(p, i));
END $f$;

CREATE FUNCTION audit_diff(before jsonb, after jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $f$
  SELECT jsonb_object_agg(k, jsonb_build_object('before', before -> k, 'after', after -> k))
  FROM jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) AS k
  WHERE before -> k IS DISTINCT FROM after -> k
    AND k !~ '(password|secret|token|credential|key_hash|private_key|signature|salt|_hash$)'
    AND k NOT IN ('date_modified', 'updated_at', 'last_used_at', 'seq', 'on_hand', 'average_cost', 'consecutive_failures')
$f$;

CREATE FUNCTION audit_action(op text, changes jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE
    WHEN op = 'INSERT' THEN 'Created'
    WHEN op = 'DELETE' THEN 'Deleted'
    WHEN changes -> 'deleted_at' ->> 'before' IS NULL AND changes -> 'deleted_at' ->> 'after' IS NOT NULL
      THEN 'Deleted'
    WHEN changes ? 'status' THEN 'StatusChanged'
    ELSE 'Updated' END
$f$;

CREATE FUNCTION audit_global_row_change() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE
  before jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  after jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  changes jsonb := global.audit_diff(before, after);
  changed jsonb := coalesce(after, before);
  actor text := coalesce(current_setting('cartage.actor', true), '');
  target text;
BEGIN
  IF changes IS NULL THEN RETURN NULL; END IF;
  SELECT o.schema_name INTO target FROM global.organizations o WHERE o.id = (changed ->> 'organization_id')::uuid;
  IF target IS NULL OR to_regclass(format('%I.audit_log', target)) IS NULL THEN RETURN NULL; END IF;
  EXECUTE format('INSERT INTO %I.audit_log (business_id, actor_type, actor_id, entity_type, entity_id, action, changes, request_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', target)
  USING (changed ->> 'business_id')::uuid,
    coalesce(nullif(split_part(actor, '|', 1), ''), 'System'),
    nullif(split_part(actor, '|', 2), '')::uuid,
    TG_ARGV[0], changed ->> 'id', global.audit_action(TG_OP, changes), changes,
    nullif(split_part(actor, '|', 3), '');
  RETURN NULL;
END $f$;

CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON roles
  FOR EACH ROW EXECUTE FUNCTION audit_global_row_change('Role');
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION audit_global_row_change('TeamMember');
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION audit_global_row_change('ApiKey');
`
