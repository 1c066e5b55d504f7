import type { FastifyBaseLogger } from 'fastify'
import { invalidField } from '../../../errors.js'
import type { AppDeps } from '../../../platform/deps.js'
import { invalidEmailToken } from './email-tokens.errors.js'
import { consumeEmailToken, createEmailToken } from './email-tokens.service.js'
import { markEmailVerified } from './email-verification.repository.js'

/**
 * Emails a link that verifies the address. Never throws: a mail outage must not undo a
 * registration that already committed, so failures become a warning (without the link).
 */
export async function sendVerificationEmail(
  { database, services, config }: AppDeps,
  user: { id: string; email: string },
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    const secret = await createEmailToken(database.db, services.hasher, {
      userId: user.id,
      purpose: 'verify_email',
    })
    await services.mailer.send({
      to: user.email,
      subject: 'Verify your email address',
      text: [
        'Welcome to Cartage.',
        '',
        'Open this link to verify your email address (valid for 24 hours):',
        `${config.publicAppUrl}/#/verify-email?token=${encodeURIComponent(secret)}`,
        '',
        'If you did not register, ignore this email.',
      ].join('\n'),
    })
  } catch (error) {
    log.warn(
      { userId: user.id, reason: error instanceof Error ? error.message : String(error) },
      'verification email not sent',
    )
  }
}

/** Uses up a verify_email token and marks its user's address verified. */
export async function verifyEmailByToken({ database, services }: AppDeps, token: string | undefined) {
  if (!token) throw invalidField('token', 'is required')
  await database.db.transaction().execute(async (trx) => {
    const consumed = await consumeEmailToken(trx, services.hasher, token, 'verify_email')
    if (!consumed) throw invalidEmailToken()
    await markEmailVerified(trx, consumed.user_id)
  })
}
