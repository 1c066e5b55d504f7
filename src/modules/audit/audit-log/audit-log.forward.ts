import type { Database } from '../../../db/database.js'

/** Entries copied per statement. */
const BATCH = 500

/**
 * Copies the waiting entries of one organisation (role, membership and API key changes made on
 * main for an organisation on another cluster: migrations/20261231090000-...) into its audit_log,
 * then removes them from main. Each entry keeps its id, so an entry copied twice (two readers at
 * once, or a failure between the copy and the removal) is kept once; nothing is held on one
 * cluster while the other is reached. Without DATABASE_CLUSTERS there is never anything waiting.
 */
export async function forwardAuditEntries(database: Database, schema: string): Promise<number> {
  if (!database.clusters) return 0
  let forwarded = 0
  for (;;) {
    const rows = await database.db
      .selectFrom('global.audit_log_outbox')
      .selectAll()
      .where('schema_name', '=', schema)
      .orderBy('occurred_at')
      .limit(BATCH)
      .execute()
    if (rows.length === 0) return forwarded
    await database.db
      .withSchema(schema)
      .insertInto('audit_log')
      .values(
        rows.map(({ schema_name: _, changes, ...row }) => ({ ...row, changes: JSON.stringify(changes) })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await database.db
      .deleteFrom('global.audit_log_outbox')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
    forwarded += rows.length
    if (rows.length < BATCH) return forwarded
  }
}

/**
 * The periodic round: every organisation's waiting entries, so they reach its log even when nobody
 * reads it (the SQL console, an export). Entries of an organisation that no longer exists are dropped.
 */
export async function forwardAllAuditEntries(database: Database): Promise<number> {
  if (!database.clusters) return 0
  await database.db
    .deleteFrom('global.audit_log_outbox')
    .where('schema_name', 'not in', database.db.selectFrom('global.organizations').select('schema_name'))
    .execute()
  const schemas = await database.db
    .selectFrom('global.audit_log_outbox')
    .select('schema_name')
    .distinct()
    .execute()
  let forwarded = 0
  for (const { schema_name } of schemas) forwarded += await forwardAuditEntries(database, schema_name)
  return forwarded
}
