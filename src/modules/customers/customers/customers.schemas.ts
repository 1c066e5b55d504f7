import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Email, Nullable, Uuid } from '../../../http/schema-helpers.js'
import { ContactRequest, ContactResponse } from './contacts.schemas.js'
import { METADATA_MAX_KEYS, METADATA_MAX_VALUE_LENGTH } from './metadata.rules.js'

export const CUSTOMER_TYPES = ['Individual', 'Company'] as const
export const CUSTOMER_STATUSES = ['Active', 'Inactive'] as const
export const ATTACHMENT_TYPES = ['File', 'Link'] as const

export const AttachmentResponse = Type.Object({
  id: Uuid({ description: 'the attachment entry id' }),
  type: EnumType(ATTACHMENT_TYPES),
  fileId: Nullable(Uuid({ description: 'the stored file (type File)' })),
  fileName: Nullable(Type.String()),
  contentType: Nullable(Type.String()),
  sizeBytes: Nullable(Type.Integer()),
  title: Nullable(Type.String()),
  url: Nullable(Type.String({ description: 'the link (type Link)' })),
  dateCreated: DateTime(),
})
export type AttachmentResponse = Static<typeof AttachmentResponse>

export const CustomerGroupRef = Type.Object({ id: Uuid(), name: Type.String() })

export const CustomerResponse = Type.Object({
  id: Uuid(),
  businessId: Uuid(),
  code: Type.String({ description: 'CUS-000001, assigned in order of creation' }),
  name: Type.String(),
  email: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  customerGroupId: Nullable(Uuid()),
  customerGroup: Nullable(CustomerGroupRef),
  type: EnumType(CUSTOMER_TYPES),
  status: EnumType(CUSTOMER_STATUSES),
  billingAddress: Nullable(AddressOutput),
  shippingAddress: Nullable(AddressOutput),
  contacts: Type.Array(ContactResponse, { description: 'primary contact first, then by creation' }),
  attachments: Type.Array(AttachmentResponse, { description: 'in order of creation' }),
  metadata: Type.Record(Type.String(), Type.String()),
  notes: Nullable(Type.String()),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type CustomerResponse = Static<typeof CustomerResponse>

/** Metadata in a customer body: string values only (removing a key is done by leaving it out). */
export const MetadataMap = Type.Record(Type.String(), Type.String({ maxLength: METADATA_MAX_VALUE_LENGTH }), {
  maxProperties: METADATA_MAX_KEYS,
  description: `string keys (1 to 100 characters) to string values (at most ${METADATA_MAX_VALUE_LENGTH} characters), at most ${METADATA_MAX_KEYS} keys`,
})

const editable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Nullable(Email())),
  phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
  customerGroupId: Type.Optional(Nullable(Uuid({ description: 'a customer group of the business' }))),
  type: Type.Optional(EnumType(CUSTOMER_TYPES, { description: 'default Individual' })),
  status: Type.Optional(EnumType(CUSTOMER_STATUSES, { description: 'default Active' })),
  billingAddress: Type.Optional(Nullable(AddressInput)),
  shippingAddress: Type.Optional(Nullable(AddressInput)),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
}

export const CreateCustomerRequest = Type.Object({
  ...editable,
  metadata: Type.Optional(MetadataMap),
  contacts: Type.Optional(
    Type.Array(ContactRequest, { maxItems: 100, description: 'at most one may have isPrimary true' }),
  ),
})
export type CreateCustomerRequest = Static<typeof CreateCustomerRequest>

export const UpdateCustomerRequest = Type.Object({
  ...editable,
  metadata: Type.Optional(MetadataMap),
})
export type UpdateCustomerRequest = Static<typeof UpdateCustomerRequest>

export const CustomerParams = Type.Object({ customerId: Uuid() })

export const BulkDeleteCustomersRequest = Type.Object({
  customerIds: Type.Array(Uuid(), { minItems: 1, maxItems: 500, uniqueItems: true }),
})
export type BulkDeleteCustomersRequest = Static<typeof BulkDeleteCustomersRequest>
