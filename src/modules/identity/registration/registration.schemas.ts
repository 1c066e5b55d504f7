import { type Static, Type } from '@sinclair/typebox'
import { AddressInput, AddressOutput } from '../../../http/address.js'
import { Email, Nullable, Uuid } from '../../../http/schema-helpers.js'

const text = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })))

/** The shared address plus the place fields a registration form sends (spec RegisterOrganizationAddressRequest). */
export const AddressRequest = Type.Composite([
  Type.Object({ placeId: text(200), name: text(200), website: text(200) }),
  AddressInput,
])
export type AddressRequest = Static<typeof AddressRequest>

export const AddressResponse = Type.Composite([
  Type.Object({
    id: Uuid(),
    placeId: Nullable(Type.String()),
    name: Nullable(Type.String()),
    website: Nullable(Type.String()),
  }),
  AddressOutput,
])
export type AddressResponse = Static<typeof AddressResponse>

export const RegisterOrganizationBusinessRequest = Type.Object({
  registeredName: Type.String({ minLength: 1, maxLength: 100 }),
  displayName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 50, description: 'defaults to the registered name' }),
  ),
  phoneNumber: text(30),
  website: text(100),
  email: Type.Optional(Nullable(Email({ description: "defaults to the owner's email" }))),
  registrationNumber: text(30),
  requiresOrderIntegration: Type.Optional(Type.Boolean({ default: false })),
  requiresOrderFulfillment: Type.Optional(Type.Boolean({ default: false })),
  requiresAccountingIntegration: Type.Optional(Type.Boolean({ default: false })),
  requiresDispatchBuilder: Type.Optional(Type.Boolean({ default: false })),
  multipleBranches: Type.Optional(Type.Boolean({ default: false })),
  address: Type.Optional(Nullable(AddressRequest)),
})

export const RegisterOrganizationUserRequest = Type.Object({
  firstName: Type.String({ minLength: 1, maxLength: 100 }),
  lastName: Type.String({ minLength: 1, maxLength: 100 }),
  phoneNumber: text(30),
  email: Email(),
  password: Type.String({ description: 'at least 8 characters, not the email address' }),
  confirmPassword: Type.String({ description: 'must equal password' }),
  acceptedTerms: Type.Boolean({ description: 'must be true' }),
})

export const RegisterOrganizationRequest = Type.Object({
  business: RegisterOrganizationBusinessRequest,
  user: RegisterOrganizationUserRequest,
  fulfillmentTypes: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
  addOns: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
})
export type RegisterOrganizationRequest = Static<typeof RegisterOrganizationRequest>

export const UserSummary = Type.Object({
  id: Uuid(),
  displayName: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  phoneNumber: Nullable(Type.String()),
})
export type UserSummary = Static<typeof UserSummary>

export const RegisterOrganizationBusinessResponse = Type.Object({
  id: Uuid({ description: 'the first business of the new organisation' }),
  registeredName: Type.String(),
  registrationNumber: Nullable(Type.String()),
  displayName: Type.String(),
  phoneNumber: Nullable(Type.String()),
  website: Nullable(Type.String()),
  email: Nullable(Type.String()),
  requiresOrderIntegration: Type.Boolean(),
  requiresOrderFulfillment: Type.Boolean(),
  requiresAccountingIntegration: Type.Boolean(),
  requiresDispatchBuilder: Type.Boolean(),
  billingAddress: Nullable(AddressResponse),
  currentUser: UserSummary,
})
export type RegisterOrganizationBusinessResponse = Static<typeof RegisterOrganizationBusinessResponse>

export const SoftCheckQuery = Type.Object({
  emailAddress: Type.Optional(Type.String({ maxLength: 254 })),
})
