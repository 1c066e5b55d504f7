import { sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { METADATA_MAX_KEYS } from './metadata.rules.js'

/**
 * Merges in ONE statement: `(metadata || sets) - removes`, only if the result keeps at most
 * METADATA_MAX_KEYS keys. Concurrent merges on the same customer both apply (row lock, re-read).
 * Returns false when no row changed: the customer is not live here, or the merge would exceed the limit.
 */
export async function mergeMetadata(
  trx: Transaction<Tables>,
  scope: { schemaName: string; businessId: string },
  customerId: string,
  sets: Record<string, string>,
  removes: string[],
): Promise<boolean> {
  const merged = sql<string>`((metadata || ${JSON.stringify(sets)}::jsonb) - ${removes}::text[])`
  const row = await trx
    .withSchema(scope.schemaName)
    .updateTable('customers')
    .set({ metadata: merged, date_modified: sql`now()` })
    .where('id', '=', customerId)
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`(select count(*) from jsonb_object_keys(${merged})) <= ${METADATA_MAX_KEYS}`)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export async function currentMetadata(
  trx: Transaction<Tables>,
  scope: { schemaName: string; businessId: string },
  customerId: string,
) {
  const row = await trx
    .withSchema(scope.schemaName)
    .selectFrom('customers')
    .select('metadata')
    .where('id', '=', customerId)
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return row?.metadata
}
