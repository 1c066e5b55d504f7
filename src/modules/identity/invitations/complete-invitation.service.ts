import { invalidField, validationFailed } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import { hashPassword, passwordPolicyReasons, verifyPassword } from '../../../security/passwords.js'
import { consumeEmailToken, findUsableEmailToken, invalidEmailToken } from '../email-tokens/index.js'
import * as repository from './invitations.repository.js'
import type { CompleteInvitationRequest } from './invitations.schemas.js'

/**
 * Accepts an invitation. The emailed token is the proof of the invitation (the spec's body has
 * no secret, and an email address alone is not one). A new user sets their password here; a user
 * who already has one confirms it instead, so an invitation can never replace a password.
 */
export async function completeInvitation(
  { database, services, config }: AppDeps,
  token: string | undefined,
  body: CompleteInvitationRequest,
  ip: string,
) {
  await services.rateLimiter.hit(`complete-invitation:ip:${ip}`, config.rateLimitPerIp, 60)
  if (!token) throw invalidField('token', 'is required: use the link from the invitation email')
  if (body.acceptedTerms === false) throw invalidField('acceptedTerms', 'the terms must be accepted')
  const found = await findUsableEmailToken(database.db, services.hasher, token, 'invitation')
  if (!found) throw invalidEmailToken()
  if (found.email.trim().toLowerCase() !== body.email.trim().toLowerCase()) {
    throw invalidField('email', 'is not the address this invitation was sent to')
  }
  let passwordHash: string | null = null
  if (found.password_hash) {
    if (!(await verifyPassword(found.password_hash, body.password))) {
      throw invalidField('password', 'must be the current password of this existing account')
    }
  } else {
    const reasons = passwordPolicyReasons('password', body.password, found.email)
    if (reasons.length > 0) throw validationFailed(reasons)
    // Hashed before the transaction so it holds no connection during the argon2 work.
    passwordHash = await hashPassword(body.password)
  }
  await database.db.transaction().execute(async (trx) => {
    const consumed = await consumeEmailToken(trx, services.hasher, token, 'invitation')
    // No organisation or no membership any more: the invitation was withdrawn.
    if (!consumed?.organization_id) throw invalidEmailToken()
    if (!(await repository.activateMembership(trx, consumed.organization_id, consumed.user_id))) {
      throw invalidEmailToken()
    }
    if (!(await repository.completeUser(trx, consumed.user_id, passwordHash))) {
      throw invalidField('password', 'the account has a password now; complete the invitation with it')
    }
  })
  return true
}
