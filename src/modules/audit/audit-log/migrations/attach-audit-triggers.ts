/**
 * Run in each organisation schema after every batch of tenant migrations (idempotent): every table
 * of the schema gets the audit trigger, so tables that later migrations add (any module's) are
 * audited without their module doing anything. Not audited: the log itself, counters and derived
 * tables (sequences, customer_counts, stock_checkpoints), records that are themselves a history
 * (stock_ledger: each movement with its date and reference; activity_traces; notifications;
 * webhook_deliveries). A module whose new table is such a history adds its name here.
 */
export const UNAUDITED_TABLES = [
  'audit_log',
  'sequences',
  'customer_counts',
  'stock_checkpoints',
  'stock_ledger',
  'activity_traces',
  'notifications',
  'webhook_deliveries',
] as const

export const sql = `
DO $do$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND c.relname <> ALL (ARRAY[${UNAUDITED_TABLES.map((t) => `'${t}'`).join(', ')}])
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'audit_row_change')
  LOOP
    EXECUTE format('CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON %I.%I FOR EACH ROW EXECUTE FUNCTION %I.audit_row_change(%L)',
      current_schema(), t.relname, current_schema(), global.audit_entity_type(t.relname));
  END LOOP;
END $do$;
`
