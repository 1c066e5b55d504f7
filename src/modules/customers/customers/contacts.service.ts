import type { Executor } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { addTrace } from '../activity/index.js'
import * as repository from './contacts.repository.js'
import type { ContactRequest, ContactResponse } from './contacts.schemas.js'
import { contactNotFound } from './customers.errors.js'
import { contactValues } from './customers.input.js'
import { toContact } from './customers.read.js'
import { type CustomerAuth, lockLiveCustomer } from './customers.service.js'

function validValues(request: ContactRequest) {
  const reasons: Reason[] = []
  const values = contactValues(request, '', reasons)
  if (reasons.length > 0) throw validationFailed(reasons)
  return values
}

const fullName = (contact: { first_name: string; last_name: string | null }) =>
  [contact.first_name, contact.last_name].filter(Boolean).join(' ')

type TraceType = 'ContactAdded' | 'ContactUpdated' | 'ContactRemoved'

const trace = (
  auth: CustomerAuth,
  customerId: string,
  type: TraceType,
  contact: Parameters<typeof fullName>[0],
) => ({
  businessId: auth.businessId,
  customerId,
  type,
  note: fullName(contact),
  source: 'System' as const,
  userId: auth.userId,
})

/*
 * Every contact change locks the customer row first: changes to one customer's contacts run one at
 * a time, so "setting a primary clears the others" can never leave two primaries.
 */

export async function createContact(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  request: ContactRequest,
): Promise<ContactResponse> {
  const values = validValues(request)
  return db.transaction().execute(async (trx) => {
    await lockLiveCustomer(trx, auth, customerId)
    if (values.is_primary) await repository.clearPrimary(trx, auth, customerId, null)
    const [row] = await repository.insertContacts(trx, auth, customerId, [values])
    if (!row) throw new Error('contact insert returned no row')
    await addTrace(trx, auth.schemaName, trace(auth, customerId, 'ContactAdded', row))
    return toContact(row)
  })
}

/** Replaces the contact (omitted optional fields become null, isPrimary false). */
export async function updateContact(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  contactId: string,
  request: ContactRequest,
): Promise<ContactResponse> {
  const values = validValues(request)
  return db.transaction().execute(async (trx) => {
    await lockLiveCustomer(trx, auth, customerId)
    if (values.is_primary) await repository.clearPrimary(trx, auth, customerId, contactId)
    const row = await repository.updateContact(trx, auth, customerId, contactId, values)
    if (!row) throw contactNotFound()
    await addTrace(trx, auth.schemaName, trace(auth, customerId, 'ContactUpdated', row))
    return toContact(row)
  })
}

export async function deleteContact(
  db: Executor,
  auth: CustomerAuth,
  customerId: string,
  contactId: string,
): Promise<ContactResponse> {
  return db.transaction().execute(async (trx) => {
    await lockLiveCustomer(trx, auth, customerId)
    const row = await repository.deleteContact(trx, auth, customerId, contactId)
    if (!row) throw contactNotFound()
    await addTrace(trx, auth.schemaName, trace(auth, customerId, 'ContactRemoved', row))
    return toContact(row)
  })
}
