import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

export async function listConfigurations(
  db: Executor,
  schemaName: string,
  businessId: string,
  customerId: string,
) {
  return db
    .withSchema(schemaName)
    .selectFrom('customer_configurations')
    .select(['customer_id', 'key', 'value', 'date_created', 'date_modified'])
    .where('business_id', '=', businessId)
    .where('customer_id', '=', customerId)
    .orderBy('key')
    .execute()
}

export async function upsertConfiguration(
  db: Executor,
  schemaName: string,
  row: { businessId: string; customerId: string; key: string; value: string },
) {
  await db
    .withSchema(schemaName)
    .insertInto('customer_configurations')
    .values({ business_id: row.businessId, customer_id: row.customerId, key: row.key, value: row.value })
    .onConflict((oc) =>
      oc
        .columns(['customer_id', 'key'])
        .doUpdateSet({ value: (eb) => eb.ref('excluded.value'), date_modified: sql`now()` }),
    )
    .execute()
}

export async function deleteConfiguration(
  db: Executor,
  schemaName: string,
  row: { businessId: string; customerId: string; key: string },
) {
  await db
    .withSchema(schemaName)
    .deleteFrom('customer_configurations')
    .where('business_id', '=', row.businessId)
    .where('customer_id', '=', row.customerId)
    .where('key', '=', row.key)
    .execute()
}
