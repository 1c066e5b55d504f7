import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { Email, Nullable, Uuid } from '../../../http/schema-helpers.js'

export const TEAM_ROLES = ['Owner', 'Admin', 'Member', 'Custom'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]
export const MEMBERSHIP_STATUSES = ['Active', 'Invited'] as const

const name = () => Type.Optional(Nullable(Type.String({ maxLength: 100 })))

export const InviteTeamMemberRequest = Type.Object({
  email: Email(),
  firstName: name(),
  lastName: name(),
  role: EnumType(TEAM_ROLES, {
    description: 'Only an owner, signed in (not an API key), may invite an Owner.',
  }),
  customRoleId: Type.Optional(
    Nullable(Uuid({ description: 'required when role is Custom: a role of this organisation' })),
  ),
})
export type InviteTeamMemberRequest = Static<typeof InviteTeamMemberRequest>

export const InvitationResponse = Type.Object({
  userId: Uuid(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: EnumType(TEAM_ROLES),
  customRoleId: Nullable(Uuid()),
  status: EnumType(MEMBERSHIP_STATUSES),
})
export type InvitationResponse = Static<typeof InvitationResponse>

const InvitationToken = Type.String({
  maxLength: 512,
  description: 'the token from the invitation link',
})

/** Spec CompleteInvitationRequest, plus the optional `token` (see the operation description). */
export const CompleteInvitationRequest = Type.Object({
  email: Email({ description: 'the invited address' }),
  password: Type.String({
    maxLength: 1024,
    description:
      'a new password (at least 8 characters, not the email); for an account that already has one, its current password',
  }),
  acceptedTerms: Type.Optional(Type.Boolean({ description: 'false is refused' })),
  token: Type.Optional(InvitationToken),
})
export type CompleteInvitationRequest = Static<typeof CompleteInvitationRequest>

export const CompleteInvitationQuery = Type.Object({ token: Type.Optional(InvitationToken) })

export const CompleteInvitationParams = Type.Object({
  businessId: Uuid({ description: 'kept for URL compatibility; not used to find the invitation' }),
})
