import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'

export const MeResponse = Type.Object({
  user: Type.Object({
    id: Uuid(),
    displayName: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    phoneNumber: Nullable(Type.String()),
    emailVerified: Type.Boolean(),
  }),
  credential: Type.String({ description: 'User (bearer token) or ApiKey' }),
  organization: Type.Object({ id: Uuid(), slug: Type.String(), name: Type.String() }),
  organizations: Type.Array(
    Type.Object({ id: Uuid(), slug: Type.String(), name: Type.String(), isOwner: Type.Boolean() }),
  ),
  businesses: Type.Array(
    Type.Object({ id: Uuid(), displayName: Type.String(), parentBusinessId: Nullable(Uuid()) }),
  ),
  currentBusinessId: Nullable(Uuid()),
  role: Type.String({ description: 'Owner, Admin, Member or Custom' }),
  customRole: Nullable(Type.Object({ id: Uuid(), name: Type.String() })),
  isOwner: Type.Boolean(),
  permissions: Type.Record(Type.String(), Type.Integer(), {
    description: `Effective bitmask per module (1 view, 2 modify, 4 delete) over ${PERMISSION_MODULES.join(', ')}`,
  }),
})
export type MeResponse = Static<typeof MeResponse>
