import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

const COLUMNS = [
  'id',
  'carrier_id',
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'role',
  'date_created',
  'date_modified',
] as const

export function scopedContacts(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('carrier_contacts')
    .select(COLUMNS)
    .where('business_id', '=', businessId)
}

export type ContactRow = Awaited<ReturnType<ReturnType<typeof scopedContacts>['executeTakeFirstOrThrow']>>

export interface ContactValues {
  carrier_id: number | null
  first_name: string
  last_name: string | null
  email: string | null
  phone_number: string | null
  role: string | null
}

export function insertContact(
  db: Executor,
  schema: string,
  values: { id: string; business_id: string } & ContactValues,
) {
  return db
    .withSchema(schema)
    .insertInto('carrier_contacts')
    .values(values)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

/** Replaces a contact of the business; undefined when it has none with this id. */
export function updateContact(
  db: Executor,
  schema: string,
  businessId: string,
  id: string,
  values: ContactValues,
) {
  return db
    .withSchema(schema)
    .updateTable('carrier_contacts')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning(COLUMNS)
    .executeTakeFirst()
}

/** Deletes a contact of the business; undefined when it has none with this id. */
export function deleteContact(db: Executor, schema: string, businessId: string, id: string) {
  return db
    .withSchema(schema)
    .deleteFrom('carrier_contacts')
    .where('id', '=', id)
    .where('business_id', '=', businessId)
    .returning('id')
    .executeTakeFirst()
}
