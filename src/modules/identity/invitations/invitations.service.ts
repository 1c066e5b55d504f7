import type { FastifyBaseLogger } from 'fastify'
import { isUniqueViolation, newId } from '../../../db/ids.js'
import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import { type BusinessAuth, isOwnerInPerson } from '../../../security/auth-context.js'
import { rolePermissions } from '../../../security/authenticator.js'
import { isSubset, type PermissionSet } from '../../../security/permissions.js'
import { createEmailToken, retireEmailTokens } from '../email-tokens/index.js'
import {
  alreadyMember,
  keyGrantsBeyondScopes,
  mailNotSent,
  ownerInPersonRequired,
} from './invitations.errors.js'
import * as repository from './invitations.repository.js'
import type { InvitationResponse, InviteTeamMemberRequest, TeamRole } from './invitations.schemas.js'

/** The custom role's id (null for a built-in role) and the rights the invitation grants. */
async function roleOf(
  { database }: AppDeps,
  organizationId: string,
  role: TeamRole,
  customRoleId: string | null | undefined,
): Promise<{ customRoleId: string | null; permissions: PermissionSet }> {
  if (role !== 'Custom') {
    if (customRoleId) throw invalidField('customRoleId', 'must be empty unless role is Custom')
    return { customRoleId: null, permissions: rolePermissions(role, null) }
  }
  if (!customRoleId) throw invalidField('customRoleId', 'is required when role is Custom')
  const permissions = await repository.organizationRolePermissions(database.db, organizationId, customRoleId)
  if (!permissions) throw invalidField('customRoleId', 'is not a role of this organisation')
  return { customRoleId, permissions: rolePermissions(role, permissions) }
}

/**
 * Invites someone to the caller's organisation: creates the user when the email is new (with no
 * password), an Invited membership and a 7-day invitation link. Inviting someone who is still
 * Invited sends a new link (the earlier ones stop working) with the new role; an Active member is a 409.
 */
export async function inviteTeamMember(
  deps: AppDeps,
  auth: BusinessAuth,
  body: InviteTeamMemberRequest,
  log: FastifyBaseLogger,
): Promise<InvitationResponse> {
  const { database, services } = deps
  if (body.role === 'Owner' && !isOwnerInPerson(auth)) throw ownerInPersonRequired(auth)
  const { customRoleId, permissions } = await roleOf(deps, auth.organizationId, body.role, body.customRoleId)
  // A key hands out no rights beyond its own: the person it invites would outlive it.
  if (auth.kind === 'apiKey' && !isSubset(permissions, auth.permissions)) throw keyGrantsBeyondScopes()
  const email = body.email.trim()
  const firstName = body.firstName?.trim() ?? ''
  const lastName = body.lastName?.trim() ?? ''
  let invited: { user: { id: string; email: string }; membershipId: string; secret: string }
  try {
    invited = await database.db.transaction().execute(async (trx) => {
      const user = await repository.ensureUser(trx, {
        id: newId(),
        email,
        firstName,
        lastName,
      })
      const invitation: repository.Invitation = {
        organizationId: auth.organizationId,
        userId: user.id,
        role: body.role,
        customRoleId,
        invitedByUserId: auth.userId,
        email,
        firstName,
        lastName,
      }
      const existing = await repository.findMembership(trx, auth.organizationId, user.id)
      if (existing && existing.status !== 'Invited') throw alreadyMember()
      const membershipId = existing?.id ?? newId()
      if (existing) {
        if (existing.role === 'Owner' && !isOwnerInPerson(auth)) throw ownerInPersonRequired(auth)
        await repository.updateInvitedMembership(trx, existing.id, invitation)
        await retireEmailTokens(trx, user.id, 'invitation', auth.organizationId)
      } else {
        await repository.insertInvitedMembership(trx, membershipId, invitation)
      }
      const secret = await createEmailToken(trx, services.hasher, {
        userId: user.id,
        purpose: 'invitation',
        organizationId: auth.organizationId,
      })
      return { user, membershipId, secret }
    })
  } catch (error) {
    // Two parallel invitations of one person: the membership's unique key lets one through.
    if (isUniqueViolation(error)) throw alreadyMember()
    throw error
  }
  await sendInvitation(deps, auth, invited.user.email, invited.secret, log)
  // Only what the inviter sent: an existing account's names stay private until it accepts.
  return {
    // The membership's id until accepted (as the team list shows it): the account's id is not ours to know.
    userId: invited.membershipId,
    // As written: the spelling an existing account holds would tell that it exists.
    email,
    firstName,
    lastName,
    role: body.role,
    customRoleId,
    status: 'Invited',
  }
}

async function sendInvitation(
  { database, services, config }: AppDeps,
  auth: BusinessAuth,
  to: string,
  secret: string,
  log: FastifyBaseLogger,
) {
  const organization = await repository.organizationName(database.db, auth.organizationId)
  try {
    await services.mailer.send({
      to,
      subject: `You are invited to ${organization} on Cartage`,
      text: [
        `You have been invited to join ${organization} on Cartage.`,
        '',
        'Open this link to accept (valid for 7 days, once):',
        `${config.publicAppUrl}/#/accept-invitation?business=${auth.businessId}&token=${encodeURIComponent(secret)}`,
        '',
        'If you did not expect this, ignore this email.',
      ].join('\n'),
    })
  } catch (error) {
    log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'invitation email not sent')
    // The invitation is saved; inviting again sends a fresh link, so the caller can retry.
    throw mailNotSent()
  }
}
