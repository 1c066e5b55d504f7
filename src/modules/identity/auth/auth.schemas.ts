import { Type } from '@sinclair/typebox'
import { DateTime, Email, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const AuthenticateRequest = Type.Object({
  email: Email(),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
})

export const OrganizationContext = Type.Object({ id: Uuid(), slug: Type.String(), name: Type.String() })

export const OrganizationSummary = Type.Object({
  id: Uuid(),
  slug: Type.String(),
  name: Type.String(),
  isOwner: Type.Boolean(),
})

export const SessionResponse = Type.Object({
  accessToken: Type.String({ description: 'JWT; send as Authorization: Bearer on the Core API' }),
  expiresAtUtc: DateTime(),
  organization: OrganizationContext,
  businessId: Nullable(Uuid({ description: 'set only for a session redeemed from a one-time token' })),
})

export const LoginResponse = Type.Object(
  {
    requiresOrganizationSelection: Type.Boolean(),
    session: Nullable(SessionResponse),
    selectionToken: Nullable(Type.String()),
    selectionExpiresAtUtc: Nullable(DateTime()),
    organizations: Nullable(Type.Array(OrganizationSummary)),
  },
  {
    description:
      'Exactly one shape is populated: one membership gives `session` (and sets the refresh cookie); several give `selectionToken`, `selectionExpiresAtUtc` and `organizations` with `requiresOrganizationSelection: true`.',
  },
)

export const SelectOrganizationRequest = Type.Object({ organizationId: Uuid() })

/** The public signing keys, as RFC 7517 JSON Web Keys. */
export const JsonWebKeySet = Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) })
