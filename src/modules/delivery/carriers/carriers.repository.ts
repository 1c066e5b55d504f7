import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'

const COLUMNS = [
  'id',
  'carrier_id',
  'enabled',
  'is_default',
  'account_reference',
  sql<boolean>`credentials is not null`.as('has_credentials'),
  'date_created',
  'date_modified',
] as const

export type ConfigurationRow = Awaited<ReturnType<typeof configurations>>[number]

/** The business's configured carriers (the ciphertext itself is never selected for a response). */
export function configurations(db: Executor, schema: string, businessId: string, carrierId?: number) {
  let query = db
    .withSchema(schema)
    .selectFrom('carrier_configurations')
    .select(COLUMNS)
    .where('business_id', '=', businessId)
  if (carrierId !== undefined) query = query.where('carrier_id', '=', carrierId)
  return query.orderBy('carrier_id').execute()
}

export async function clearDefault(trx: Transaction<Tables>, schema: string, businessId: string) {
  await trx
    .withSchema(schema)
    .updateTable('carrier_configurations')
    .set({ is_default: false, date_modified: sql<Date>`now()` })
    .where('business_id', '=', businessId)
    .where('is_default', '=', true)
    .execute()
}

export interface ConfigurationValues {
  enabled: boolean
  is_default: boolean
  account_reference: string | null
  credentials: Buffer | null
}

export async function upsertConfiguration(
  trx: Transaction<Tables>,
  schema: string,
  row: ConfigurationValues & { id: string; business_id: string; carrier_id: number },
) {
  await trx
    .withSchema(schema)
    .insertInto('carrier_configurations')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['business_id', 'carrier_id']).doUpdateSet({
        enabled: row.enabled,
        is_default: row.is_default,
        account_reference: row.account_reference,
        credentials: row.credentials,
        date_modified: sql<Date>`now()`,
      }),
    )
    .execute()
}

export async function updateConfiguration(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  carrierId: number,
  values: Partial<ConfigurationValues>,
) {
  return trx
    .withSchema(schema)
    .updateTable('carrier_configurations')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('business_id', '=', businessId)
    .where('carrier_id', '=', carrierId)
    .returning('id')
    .executeTakeFirst()
}

export function deleteConfiguration(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .deleteFrom('carrier_configurations')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('carrier_id')
    .executeTakeFirst()
}

/** The sealed credentials of a configured carrier (null: none stored or not configured); never for a response. */
export async function storedCredentials(db: Executor, schema: string, businessId: string, carrierId: number) {
  const row = await db
    .withSchema(schema)
    .selectFrom('carrier_configurations')
    .select('credentials')
    .where('business_id', '=', businessId)
    .where('carrier_id', '=', carrierId)
    .executeTakeFirst()
  return row?.credentials ?? null
}
