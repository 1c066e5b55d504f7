import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Email, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const ContactResponse = Type.Object({
  id: Uuid(),
  customerId: Uuid(),
  firstName: Type.String(),
  lastName: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  role: Nullable(Type.String()),
  isPrimary: Type.Boolean({ description: 'at most one contact of a customer is primary' }),
  dateCreated: DateTime(),
  dateModified: DateTime(),
})
export type ContactResponse = Static<typeof ContactResponse>

/** CreateContactCommand and UpdateContactCommand: the same fields; PUT replaces the contact. */
export const ContactRequest = Type.Object({
  firstName: Type.String({ minLength: 1, maxLength: 100 }),
  lastName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  email: Type.Optional(Nullable(Email())),
  phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
  role: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'e.g. Buyer, Accounts' }))),
  isPrimary: Type.Optional(
    Type.Boolean({
      default: false,
      description: "true makes this the customer's primary contact and clears the others",
    }),
  ),
})
export type ContactRequest = Static<typeof ContactRequest>

export const ContactParams = Type.Object({ customerId: Uuid(), contactId: Uuid() })
