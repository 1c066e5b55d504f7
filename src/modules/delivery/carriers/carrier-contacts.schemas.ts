import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Email, Nullable, Uuid } from '../../../http/schema-helpers.js'

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
export type ContactResponse = Static<typeof ContactResponse>
