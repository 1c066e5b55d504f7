import { type Static, Type } from '@sinclair/typebox'
import { sql } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { invalidField, notFound } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import { DateTime, Email, Nullable, Uuid } from '../../../http/schema-helpers.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { carrierById } from './catalogue.js'

/** CreateContactCommand / UpdateContactCommand for carrier contacts; PUT replaces the contact. */
export const CarrierContactRequest = Type.Object({
  carrierId: Type.Optional(
    Nullable(Type.Integer({ description: 'the catalogue carrier this person works for' })),
  ),
  firstName: Type.String({ minLength: 1, maxLength: 100 }),
  lastName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  email: Type.Optional(Nullable(Email())),
  phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
  role: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'e.g. Account manager, Depot' }))),
})
export type CarrierContactRequest = Static<typeof CarrierContactRequest>
export const ContactIdParams = Type.Object({ contactId: Uuid() })

export const ContactResponse = Type.Object({
  id: Uuid(),
  carrierId: Nullable(Type.Integer()),
  firstName: Type.String(),
  lastName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  role: Nullable(Type.String()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
type ContactResponse = Static<typeof ContactResponse>

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
const LIST: ListSpec = {
  fields: {
    carrierId: { column: 'carrier_id', type: 'number' },
    firstName: { column: 'first_name', type: 'string' },
    lastName: { column: 'last_name', type: 'string' },
    email: { column: 'email', type: 'string' },
    dateCreated: { column: 'date_created', type: 'datetime' },
  },
  search: ['first_name', 'last_name', 'email', 'role'],
  defaultOrder: [{ column: 'date_created', direction: 'desc' }],
  tiebreak: 'id',
}
const contactNotFound = () =>
  notFound('carrier_contact_not_found', 'No carrier contact of this business has this id.')

type Row = { [K in (typeof COLUMNS)[number]]: unknown } & {
  id: string
  date_created: Date
  date_modified: Date
}
const toContact = (row: Row): ContactResponse => ({
  id: row.id,
  carrierId: row.carrier_id as number | null,
  firstName: row.first_name as string,
  lastName: row.last_name as string | null,
  email: row.email as string | null,
  phoneNumber: row.phone_number as string | null,
  role: row.role as string | null,
  dateCreated: row.date_created.toISOString(),
  dateModified: row.date_modified.toISOString(),
})

function values(request: CarrierContactRequest) {
  if (request.carrierId != null && !carrierById(request.carrierId))
    throw invalidField('carrierId', 'must be a carrier catalogue id (GET /api/carriers)')
  const firstName = request.firstName.trim()
  if (!firstName) throw invalidField('firstName', 'must not be blank')
  return {
    carrier_id: request.carrierId ?? null,
    first_name: firstName,
    last_name: request.lastName?.trim() || null,
    email: request.email?.trim().toLowerCase() || null,
    phone_number: request.phoneNumber?.trim() || null,
    role: request.role?.trim() || null,
  }
}

export async function listContacts(database: Database, auth: BusinessAuth, query: ListQuery) {
  const scoped = database.db
    .withSchema(auth.schemaName)
    .selectFrom('carrier_contacts')
    .select(COLUMNS)
    .where('business_id', '=', auth.businessId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toContact), total, page)
}

export async function addContact(database: Database, auth: BusinessAuth, request: CarrierContactRequest) {
  const row = await database.db
    .withSchema(auth.schemaName)
    .insertInto('carrier_contacts')
    .values({ id: newId(), business_id: auth.businessId, ...values(request) })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
  return toContact(row)
}

export async function updateContact(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: CarrierContactRequest,
) {
  const row = await database.db
    .withSchema(auth.schemaName)
    .updateTable('carrier_contacts')
    .set({ ...values(request), date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .where('business_id', '=', auth.businessId)
    .returning(COLUMNS)
    .executeTakeFirst()
  if (!row) throw contactNotFound()
  return toContact(row)
}

export async function deleteContact(database: Database, auth: BusinessAuth, id: string) {
  const row = await database.db
    .withSchema(auth.schemaName)
    .deleteFrom('carrier_contacts')
    .where('id', '=', id)
    .where('business_id', '=', auth.businessId)
    .returning('id')
    .executeTakeFirst()
  if (!row) throw contactNotFound()
  return true
}
