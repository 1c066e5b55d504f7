import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { invalidField } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import * as repository from './carrier-contacts.repository.js'
import type { CarrierContactRequest, ContactResponse } from './carrier-contacts.schemas.js'
import { contactNotFound } from './carriers.errors.js'
import { carrierById } from './catalogue.js'

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

const toContact = (row: repository.ContactRow): ContactResponse => ({
  id: row.id,
  carrierId: row.carrier_id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  phoneNumber: row.phone_number,
  role: row.role,
  dateCreated: row.date_created.toISOString(),
  dateModified: row.date_modified.toISOString(),
})

function values(request: CarrierContactRequest): repository.ContactValues {
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
  const scoped = repository.scopedContacts(database.db, auth.schemaName, auth.businessId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toContact), total, page)
}

export async function addContact(database: Database, auth: BusinessAuth, request: CarrierContactRequest) {
  const row = await repository.insertContact(database.db, auth.schemaName, {
    id: newId(),
    business_id: auth.businessId,
    ...values(request),
  })
  return toContact(row)
}

export async function updateContact(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: CarrierContactRequest,
) {
  const row = await repository.updateContact(
    database.db,
    auth.schemaName,
    auth.businessId,
    id,
    values(request),
  )
  if (!row) throw contactNotFound()
  return toContact(row)
}

export async function deleteContact(database: Database, auth: BusinessAuth, id: string) {
  const row = await repository.deleteContact(database.db, auth.schemaName, auth.businessId, id)
  if (!row) throw contactNotFound()
  return true
}
