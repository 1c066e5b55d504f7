import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress, readAddress } from '../../../http/address.js'
import type { ContactRequest } from './contacts.schemas.js'
import type { CustomerWrite, LockedCustomer } from './customers.repository.js'
import type { CreateCustomerRequest, UpdateCustomerRequest } from './customers.schemas.js'
import { metadataKeyReasons } from './metadata.rules.js'

export const blankToNull = (value: string | null | undefined) => value?.trim() || null

/** A contact's columns; a first name of only spaces counts as missing. */
export function contactValues(request: ContactRequest, fieldPrefix: string, reasons: Reason[]) {
  const firstName = request.firstName.trim()
  if (!firstName) reasons.push({ field: `${fieldPrefix}firstName`, message: 'must not be blank' })
  return {
    first_name: firstName,
    last_name: blankToNull(request.lastName),
    email: blankToNull(request.email),
    phone_number: blankToNull(request.phoneNumber),
    role: blankToNull(request.role),
    is_primary: request.isPrimary ?? false,
  }
}

export type ContactValues = ReturnType<typeof contactValues>

const addressJson = (address: Parameters<typeof normaliseAddress>[0]) => {
  const normalised = normaliseAddress(address)
  return normalised ? JSON.stringify(normalised) : null
}

/**
 * The columns a create or PUT writes: trimmed, blanks as null, defaults applied (PUT replaces, so an
 * omitted field is reset, not kept). Throws one 400 with a reason per rule the schema cannot express.
 */
export function customerValues(request: CreateCustomerRequest | UpdateCustomerRequest): {
  values: CustomerWrite
  metadata: Record<string, string> | undefined
  contacts: ContactValues[]
} {
  const reasons: Reason[] = []
  const name = request.name.trim()
  if (!name) reasons.push({ field: 'name', message: 'must not be blank' })
  if (request.metadata) reasons.push(...metadataKeyReasons(Object.keys(request.metadata), 'metadata.'))
  const contactRequests = 'contacts' in request ? (request.contacts ?? []) : []
  const contacts = contactRequests.map((contact, i) => contactValues(contact, `contacts.${i}.`, reasons))
  if (contacts.filter((contact) => contact.is_primary).length > 1) {
    reasons.push({ field: 'contacts', message: 'at most one contact may be primary' })
  }
  if (reasons.length > 0) throw validationFailed(reasons)
  return {
    values: {
      name,
      email: blankToNull(request.email),
      phone_number: blankToNull(request.phoneNumber),
      customer_group_id: request.customerGroupId?.toLowerCase() ?? null,
      type: request.type ?? 'Individual',
      status: request.status ?? 'Active',
      billing_address: addressJson(request.billingAddress),
      shipping_address: addressJson(request.shippingAddress),
      notes: blankToNull(request.notes),
    },
    metadata: request.metadata,
    contacts,
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

const sortedEntries = (map: Record<string, string>) =>
  Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** API names of the fields a PUT changes, for the CustomerUpdated trace. */
export function changedFields(
  before: LockedCustomer,
  after: CustomerWrite,
  metadata: Record<string, string> | undefined,
): string[] {
  const changed: string[] = []
  const compare: [string, unknown, unknown][] = [
    ['name', before.name, after.name],
    ['email', before.email, after.email],
    ['phoneNumber', before.phone_number, after.phone_number],
    ['customerGroupId', before.customer_group_id, after.customer_group_id],
    ['type', before.type, after.type],
    ['status', before.status, after.status],
    ['notes', before.notes, after.notes],
  ]
  for (const [field, a, b] of compare) if (a !== b) changed.push(field)
  // Stored addresses are read back through the same normalisation, so key order matches.
  if (
    !sameJson(readAddress(before.billing_address), after.billing_address && JSON.parse(after.billing_address))
  ) {
    changed.push('billingAddress')
  }
  if (
    !sameJson(
      readAddress(before.shipping_address),
      after.shipping_address && JSON.parse(after.shipping_address),
    )
  ) {
    changed.push('shippingAddress')
  }
  if (metadata && !sameJson(sortedEntries(before.metadata ?? {}), sortedEntries(metadata)))
    changed.push('metadata')
  return changed
}
