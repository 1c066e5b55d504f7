import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

/** The business's stored settings, all or only `keys`, ordered by key. */
export async function storedSettings(
  db: Executor,
  schemaName: string,
  businessId: string,
  keys?: readonly string[],
) {
  let query = db
    .withSchema(schemaName)
    .selectFrom('settings')
    .select(['key', 'value', 'date_modified'])
    .where('business_id', '=', businessId)
  if (keys) {
    if (keys.length === 0) return []
    query = query.where('key', 'in', keys)
  }
  return query.orderBy('key').execute()
}

/** Sets the given keys (inserting or overwriting) and removes those mapped to null. */
export async function saveSettings(
  trx: Transaction<Tables>,
  schemaName: string,
  businessId: string,
  changes: ReadonlyMap<string, string | null>,
) {
  const upserts = [...changes].filter((c): c is [string, string] => c[1] !== null)
  const removals = [...changes].filter(([, value]) => value === null).map(([key]) => key)
  if (upserts.length > 0) {
    await trx
      .withSchema(schemaName)
      .insertInto('settings')
      .values(upserts.map(([key, value]) => ({ business_id: businessId, key, value })))
      .onConflict((oc) =>
        oc
          .columns(['business_id', 'key'])
          .doUpdateSet({ value: (eb) => eb.ref('excluded.value'), date_modified: sql`now()` }),
      )
      .execute()
  }
  if (removals.length > 0) {
    await trx
      .withSchema(schemaName)
      .deleteFrom('settings')
      .where('business_id', '=', businessId)
      .where('key', 'in', removals)
      .execute()
  }
}
