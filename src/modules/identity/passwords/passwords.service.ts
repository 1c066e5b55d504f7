import type { FastifyBaseLogger } from 'fastify'
import { validationFailed } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import { hashPassword, passwordPolicyReasons } from '../../../security/passwords.js'
import { findUserByEmail, revokeUserSessions } from '../auth/index.js'
import {
  consumeEmailToken,
  createEmailToken,
  findUsableEmailToken,
  invalidEmailToken,
  retireEmailTokens,
} from '../email-tokens/index.js'
import { setPassword } from './passwords.repository.js'

const IP_WINDOW_SECONDS = 60
const ACCOUNT_WINDOW_SECONDS = 15 * 60

/**
 * Always answers the same: whether the email exists is decided (and the link sent) after the
 * response, so neither the body nor the response time tells a caller which addresses are known.
 */
export async function forgotPassword(deps: AppDeps, email: string, ip: string, log: FastifyBaseLogger) {
  const { services, config } = deps
  await services.rateLimiter.hit(`forgot-password:ip:${ip}`, config.rateLimitPerIp, IP_WINDOW_SECONDS)
  await services.rateLimiter.hit(
    `forgot-password:account:${email.trim().toLowerCase()}`,
    config.rateLimitPerAccount,
    ACCOUNT_WINDOW_SECONDS,
  )
  void sendResetLink(deps, email).catch((error: unknown) =>
    log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'reset email not sent'),
  )
  return true
}

async function sendResetLink({ database, services, config }: AppDeps, email: string) {
  const user = await findUserByEmail(database.db, email)
  if (!user) return
  const secret = await createEmailToken(database.db, services.hasher, {
    userId: user.id,
    purpose: 'reset_password',
  })
  await services.mailer.send({
    to: user.email,
    subject: 'Reset your password',
    text: [
      'Someone (hopefully you) asked to reset the password of your Cartage account.',
      '',
      'Open this link to choose a new password (valid for 30 minutes, once):',
      `${config.publicAppUrl}/#/reset-password?token=${encodeURIComponent(secret)}`,
      '',
      'If you did not ask, ignore this email: your password stays as it is.',
    ].join('\n'),
  })
}

/** Sets a new password with a reset token (single use) and ends every session of the user. */
export async function resetPassword(
  { database, services, config }: AppDeps,
  token: string,
  password: string,
  ip: string,
) {
  await services.rateLimiter.hit(`reset-password:ip:${ip}`, config.rateLimitPerIp, IP_WINDOW_SECONDS)
  const found = await findUsableEmailToken(database.db, services.hasher, token, 'reset_password')
  if (!found) throw invalidEmailToken()
  const reasons = passwordPolicyReasons('password', password, found.email)
  if (reasons.length > 0) throw validationFailed(reasons)
  // Hashed before the transaction so it holds no connection during the argon2 work.
  const passwordHash = await hashPassword(password)
  await database.db.transaction().execute(async (trx) => {
    // The atomic consume decides: of two parallel resets with one token, only one gets here.
    const consumed = await consumeEmailToken(trx, services.hasher, token, 'reset_password')
    if (!consumed) throw invalidEmailToken()
    await setPassword(trx, consumed.user_id, passwordHash)
    // Other reset links sent earlier die with the old password.
    await retireEmailTokens(trx, consumed.user_id, 'reset_password')
    await revokeUserSessions(trx, consumed.user_id, 'password_reset')
  })
  return true
}
