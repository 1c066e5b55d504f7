import { sql, type Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import type { ContactValues } from './customers.input.js'

interface Scope {
  schemaName: string
  businessId: string
}

export async function insertContacts(
  trx: Transaction<Tables>,
  scope: Scope,
  customerId: string,
  contacts: readonly ContactValues[],
) {
  if (contacts.length === 0) return []
  return trx
    .withSchema(scope.schemaName)
    .insertInto('customer_contacts')
    .values(
      contacts.map((c) => ({ ...c, id: newId(), business_id: scope.businessId, customer_id: customerId })),
    )
    .returningAll()
    .execute()
}

export async function updateContact(
  trx: Transaction<Tables>,
  scope: Scope,
  customerId: string,
  contactId: string,
  values: ContactValues,
) {
  return trx
    .withSchema(scope.schemaName)
    .updateTable('customer_contacts')
    .set({ ...values, date_modified: sql`now()` })
    .where('id', '=', contactId)
    .where('customer_id', '=', customerId)
    .where('business_id', '=', scope.businessId)
    .returningAll()
    .executeTakeFirst()
}

export async function deleteContact(
  trx: Transaction<Tables>,
  scope: Scope,
  customerId: string,
  contactId: string,
) {
  return trx
    .withSchema(scope.schemaName)
    .deleteFrom('customer_contacts')
    .where('id', '=', contactId)
    .where('customer_id', '=', customerId)
    .where('business_id', '=', scope.businessId)
    .returningAll()
    .executeTakeFirst()
}

/** Clears the customer's primary flag on every contact but `exceptId`, before another becomes primary. */
export async function clearPrimary(
  trx: Transaction<Tables>,
  scope: Scope,
  customerId: string,
  exceptId: string | null,
) {
  let query = trx
    .withSchema(scope.schemaName)
    .updateTable('customer_contacts')
    .set({ is_primary: false, date_modified: sql`now()` })
    .where('customer_id', '=', customerId)
    .where('business_id', '=', scope.businessId)
    .where('is_primary', '=', true)
  if (exceptId) query = query.where('id', '<>', exceptId)
  await query.execute()
}
