import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Email, Nullable, Uuid } from '../../../http/schema-helpers.js'

/**
 * When a supplier expects to be paid: before shipping (Prepaid), on receipt of the goods
 * (DueOnReceipt), a number of days after the invoice (NetN), or at the end of the invoice's month.
 */
export const PAYMENT_TERMS = [
  'Prepaid',
  'DueOnReceipt',
  'Net7',
  'Net15',
  'Net30',
  'Net45',
  'Net60',
  'Net90',
  'EndOfMonth',
] as const
export type PaymentTerms = (typeof PAYMENT_TERMS)[number]

/** Limits on a supplier's metadata: the same as a customer's. */
export const METADATA_MAX_KEYS = 50
export const METADATA_MAX_KEY_LENGTH = 100
export const METADATA_MAX_VALUE_LENGTH = 1000

export const MAX_LEAD_TIME_DAYS = 3650

export const SupplierContactRequest = Type.Object(
  {
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    email: Type.Optional(Nullable(Email())),
    phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
    role: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'e.g. Sales, Accounts' }))),
    isPrimary: Type.Optional(Type.Boolean({ default: false, description: 'at most one contact is primary' })),
  },
  { title: 'SupplierContactRequest' },
)
export type SupplierContactRequest = Static<typeof SupplierContactRequest>

export const SupplierContactResponse = Type.Object(
  {
    id: Uuid(),
    firstName: Type.String(),
    lastName: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
    role: Nullable(Type.String()),
    isPrimary: Type.Boolean(),
  },
  { title: 'SupplierContact' },
)
export type SupplierContactResponse = Static<typeof SupplierContactResponse>

export const SupplierMetadata = Type.Record(
  Type.String(),
  Type.String({ maxLength: METADATA_MAX_VALUE_LENGTH }),
  {
    maxProperties: METADATA_MAX_KEYS,
    description: `string keys (1 to ${METADATA_MAX_KEY_LENGTH} characters) to string values (at most ${METADATA_MAX_VALUE_LENGTH} characters), at most ${METADATA_MAX_KEYS} keys`,
  },
)

/** CreateSupplierRequest and UpdateSupplierRequest: the same fields; a PUT replaces the supplier. */
export const SupplierRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.Optional(Nullable(Email())),
    phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
    website: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    currency: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 3,
        description:
          "ISO 4217 code the supplier invoices in (any letter case, stored upper case); defaults to the business's currency on create, kept as is when omitted on update",
      }),
    ),
    paymentTerms: Type.Optional(EnumType(PAYMENT_TERMS, { description: 'default Net30' })),
    leadTimeDays: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LEAD_TIME_DAYS,
        description:
          'days from ordering to delivery, used where a product has no lead time of its own; default 0',
      }),
    ),
    taxNumber: Type.Optional(
      Nullable(Type.String({ maxLength: 50, description: 'VAT or tax registration number' })),
    ),
    address: Type.Optional(Nullable(AddressInput)),
    remittanceAddress: Type.Optional(Nullable(AddressInput)),
    contacts: Type.Optional(
      Type.Array(SupplierContactRequest, {
        maxItems: 50,
        description:
          'at most one may have isPrimary true; on update, the list replaces the contacts (omitted: kept)',
      }),
    ),
    metadata: Type.Optional(SupplierMetadata),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    isActive: Type.Optional(
      Type.Boolean({ description: 'default true; false keeps it out of new purchase orders' }),
    ),
  },
  { title: 'SupplierRequest' },
)
export type SupplierRequest = Static<typeof SupplierRequest>

export const SupplierResponse = Type.Object(
  {
    id: Uuid(),
    businessId: Uuid(),
    code: Type.String({ description: 'SUP-000001, assigned in order of creation' }),
    name: Type.String(),
    email: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
    website: Nullable(Type.String()),
    currency: Type.String({ description: 'ISO 4217' }),
    paymentTerms: EnumType(PAYMENT_TERMS),
    leadTimeDays: Type.Integer(),
    taxNumber: Nullable(Type.String()),
    address: Nullable(AddressOutput),
    remittanceAddress: Nullable(AddressOutput),
    contacts: Type.Array(SupplierContactResponse, {
      description: 'primary contact first, then in the order given',
    }),
    metadata: Type.Record(Type.String(), Type.String()),
    notes: Nullable(Type.String()),
    isActive: Type.Boolean(),
    deletedAt: Nullable(DateTime({ description: 'set once deleted (seen only with includeDeleted=true)' })),
    dateCreated: DateTime(),
    dateModified: DateTime(),
  },
  { title: 'SupplierResponse' },
)
export type SupplierResponse = Static<typeof SupplierResponse>

export const SupplierParams = Type.Object({ supplierId: Uuid() })

export const GetSupplierQuery = Type.Object({
  includeDeleted: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'true also finds a deleted supplier (deletedAt set), e.g. to name it on an old purchase order',
    }),
  ),
})
export type GetSupplierQuery = Static<typeof GetSupplierQuery>
