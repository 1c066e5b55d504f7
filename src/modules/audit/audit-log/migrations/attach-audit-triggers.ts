/** The audit module's own tables left out: the log itself, and the platform's sequence counters (db/sequences.ts). */
export const OWN_UNAUDITED_TABLES = ['audit_log', 'sequences'] as const

const quoted = (name: string) => `'${name.replaceAll("'", "''")}'`

/**
 * Run in each organisation schema after every batch of tenant migrations (idempotent; it replaces
 * what it made before, so a changed rule reaches every schema): the trigger function that writes
 * this schema's audit_log, and its trigger on every table of the schema, so the tables that later
 * migrations add (any module's) are audited without their module doing anything.
 *
 * Not audited: the tables the modules declare as such (`unauditedTables` in their declarations:
 * records that are a history already, counters and derived tables), and the log itself.
 *
 * Each trigger is given the entity's name (`order_lines` -> OrderLine), the column that identifies
 * a row (id, else the first primary-key column other than business_id) and, for a table without business_id, the foreign
 * key that leads to a parent that has one (order_lines.order_id -> orders), so every entry is
 * filed under its business. The function names this schema's audit_log explicitly (requests run
 * with the default search path), so it is generated with the schema's name.
 *
 * A column with a `<column>_digest` column beside it (a delivery zone's geometry: up to 0.3 MB) is
 * recorded by that digest, which the application writes with the value, and its size: the value
 * itself is never read, printed into JSON or hashed by the trigger (that took most of a large
 * zone's save on the embedded database, whose one connection every other request waits for).
 * The entry still names the column, and tells two versions apart by their digests.
 */
export const attachAuditTriggers = (unaudited: readonly string[]) => ({
  name: 'attach-audit-triggers',
  sql: sqlLeavingOut([...OWN_UNAUDITED_TABLES, ...unaudited]),
})

const sqlLeavingOut = (unaudited: readonly string[]) => `
DO $do$
DECLARE
  t record;
BEGIN
  EXECUTE format($fn$
CREATE OR REPLACE FUNCTION %1$I.audit_row_change() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  -- The columns recorded by their digests, each as a null ({"geometry": null}), or empty.
  digested jsonb := nullif(TG_ARGV[4], '')::jsonb;
  before jsonb;
  after jsonb;
  changes jsonb;
  changed jsonb;
  business uuid;
  c text;
  bytes bigint;
BEGIN
  IF digested IS NULL THEN
    before := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
    after := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  ELSE
    -- The row with those columns null: their values are not detoasted or printed.
    IF TG_OP <> 'INSERT' THEN before := to_jsonb(jsonb_populate_record(OLD, digested)); END IF;
    IF TG_OP <> 'DELETE' THEN after := to_jsonb(jsonb_populate_record(NEW, digested)); END IF;
    FOR c IN SELECT jsonb_object_keys(digested) LOOP
      -- octet_length of a stored value reads its size from the TOAST pointer, not the value.
      IF before IS NOT NULL THEN
        EXECUTE format('SELECT octet_length(($1).%%I)', c) INTO bytes USING OLD;
        before := (before - (c || '_digest')) || jsonb_build_object(c, CASE WHEN bytes IS NOT NULL THEN
          jsonb_build_object('omitted', 'too large to record', 'bytes', bytes, 'md5', before -> (c || '_digest')) END);
      END IF;
      IF after IS NOT NULL THEN
        EXECUTE format('SELECT octet_length(($1).%%I)', c) INTO bytes USING NEW;
        after := (after - (c || '_digest')) || jsonb_build_object(c, CASE WHEN bytes IS NOT NULL THEN
          jsonb_build_object('omitted', 'too large to record', 'bytes', bytes, 'md5', after -> (c || '_digest')) END);
      END IF;
    END LOOP;
  END IF;
  changes := global.audit_diff(before, after);
  changed := coalesce(after, before);
  IF changes IS NULL THEN RETURN NULL; END IF;
  IF TG_TABLE_NAME = 'businesses' THEN
    business := changed ->> 'id';
  ELSIF changed ? 'business_id' THEN
    business := changed ->> 'business_id';
  ELSIF TG_ARGV[2] <> '' AND changed ->> TG_ARGV[2] IS NOT NULL THEN
    -- A parent removed in the same statement (a cascade) is gone: the entry then has no business.
    EXECUTE format('SELECT business_id FROM %%I.%%I WHERE id = %%L', TG_TABLE_SCHEMA, TG_ARGV[3], changed ->> TG_ARGV[2])
      INTO business;
  END IF;
  INSERT INTO %1$I.audit_log (business_id, actor_type, actor_id, entity_type, entity_id, action, changes, request_id)
  SELECT business, a.actor_type, a.actor_id, TG_ARGV[0], changed ->> TG_ARGV[1], global.audit_action(TG_OP, changes),
    changes, a.request_id
  FROM global.audit_actor() a;
  RETURN NULL;
END $body$
$fn$, current_schema());

  FOR t IN
    SELECT c.oid, c.relname,
      c.relname <> ALL (ARRAY[${unaudited.map(quoted).join(', ')}]::text[]) AS audited,
      coalesce(
        (SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'id' AND NOT a.attisdropped),
        (SELECT a.attname FROM pg_catalog.pg_index i JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
          WHERE i.indrelid = c.oid AND i.indisprimary AND a.attname <> 'business_id'
          ORDER BY array_position(i.indkey::int2[], a.attnum) LIMIT 1),
        'id') AS id_column,
      EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'business_id' AND NOT a.attisdropped)
        AS has_business,
      (SELECT array[a.attname::text, p.relname::text]
        FROM pg_catalog.pg_constraint k
        JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1]
        JOIN pg_catalog.pg_class p ON p.oid = k.confrelid
        WHERE k.conrelid = c.oid AND k.contype = 'f' AND array_length(k.conkey, 1) = 1
          AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute b WHERE b.attrelid = p.oid AND b.attname = 'business_id' AND NOT b.attisdropped)
          AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute b WHERE b.attrelid = p.oid AND b.attname = 'id' AND NOT b.attisdropped)
        ORDER BY k.conname LIMIT 1) AS parent,
      coalesce((SELECT jsonb_object_agg(a.attname, NULL)::text FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
          AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute d
            WHERE d.attrelid = c.oid AND d.attname = a.attname || '_digest' AND NOT d.attisdropped)), '') AS digested
    FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
  LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS audit_row_change ON %I.%I', current_schema(), t.relname);
    CONTINUE WHEN NOT t.audited;
    EXECUTE format('CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON %I.%I FOR EACH ROW EXECUTE FUNCTION %I.audit_row_change(%L, %L, %L, %L, %L)',
      current_schema(), t.relname, current_schema(), global.audit_entity_type(t.relname), t.id_column,
      CASE WHEN t.has_business THEN '' ELSE coalesce(t.parent[1], '') END,
      CASE WHEN t.has_business THEN '' ELSE coalesce(t.parent[2], '') END,
      t.digested);
  END LOOP;
END $do$;
`
