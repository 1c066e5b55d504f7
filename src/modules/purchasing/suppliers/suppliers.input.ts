import { type Reason, validationFailed } from '../../../errors.js'
import { normaliseAddress } from '../../../http/address.js'
import type { ContactValues, SupplierWrite } from './suppliers.repository.js'
import {
  METADATA_MAX_KEY_LENGTH,
  type SupplierContactRequest,
  type SupplierRequest,
} from './suppliers.schemas.js'

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

const blankToNull = (value: string | null | undefined) => value?.trim() || null

const addressJson = (address: Parameters<typeof normaliseAddress>[0]) => {
  const normalised = normaliseAddress(address)
  return normalised ? JSON.stringify(normalised) : null
}

/** ISO 4217 code in upper case, or undefined when unknown. */
export function currencyCode(value: string): string | undefined {
  const code = value.trim().toUpperCase()
  return CURRENCIES.has(code) ? code : undefined
}

/** Key rules JSON Schema cannot name per key (propertyNames errors name only the object). */
function metadataKeyReasons(keys: Iterable<string>): Reason[] {
  const reasons: Reason[] = []
  for (const key of keys) {
    const field = key ? `metadata.${key}` : 'metadata'
    if (key.trim() === '') reasons.push({ field, message: 'a metadata key must not be empty or blank' })
    else if (key.length > METADATA_MAX_KEY_LENGTH)
      reasons.push({ field, message: `a metadata key has at most ${METADATA_MAX_KEY_LENGTH} characters` })
  }
  return reasons
}

function contactValues(request: SupplierContactRequest, index: number, reasons: Reason[]): ContactValues {
  const firstName = request.firstName.trim()
  if (!firstName) reasons.push({ field: `contacts.${index}.firstName`, message: 'must not be blank' })
  return {
    first_name: firstName,
    last_name: blankToNull(request.lastName),
    email: blankToNull(request.email),
    phone_number: blankToNull(request.phoneNumber),
    role: blankToNull(request.role),
    is_primary: request.isPrimary ?? false,
  }
}

/**
 * The columns a create or PUT writes: trimmed, blanks as null, defaults applied (a PUT replaces, so
 * an omitted field is reset; currency, contacts and metadata are kept when omitted). Throws one 400
 * with a reason per rule the schema cannot express.
 */
export function supplierValues(request: SupplierRequest): {
  values: Omit<SupplierWrite, 'currency'>
  currency: string | undefined
  contacts: ContactValues[] | undefined
  metadata: Record<string, string> | undefined
} {
  const reasons: Reason[] = []
  const name = request.name.trim()
  if (!name) reasons.push({ field: 'name', message: 'must not be blank' })
  const currency = request.currency === undefined ? undefined : currencyCode(request.currency)
  if (request.currency !== undefined && !currency)
    reasons.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as USD or ZAR' })
  if (request.metadata) reasons.push(...metadataKeyReasons(Object.keys(request.metadata)))
  const contacts = request.contacts?.map((contact, i) => contactValues(contact, i, reasons))
  if (contacts && contacts.filter((contact) => contact.is_primary).length > 1)
    reasons.push({ field: 'contacts', message: 'at most one contact may be primary' })
  if (reasons.length > 0) throw validationFailed(reasons)
  return {
    values: {
      name,
      email: blankToNull(request.email),
      phone_number: blankToNull(request.phoneNumber),
      website: blankToNull(request.website),
      payment_terms: request.paymentTerms ?? 'Net30',
      lead_time_days: request.leadTimeDays ?? 0,
      tax_number: blankToNull(request.taxNumber),
      address: addressJson(request.address),
      remittance_address: addressJson(request.remittanceAddress),
      notes: blankToNull(request.notes),
      is_active: request.isActive ?? true,
    },
    currency,
    contacts,
    metadata: request.metadata,
  }
}
