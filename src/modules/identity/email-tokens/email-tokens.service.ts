import type { Executor } from '../../../db/tables.js'
import { newSecret, type SecretHasher } from '../../../security/secrets.js'
import type { EmailTokenPurpose } from './email-tokens.repository.js'
import * as repository from './email-tokens.repository.js'

export type { EmailTokenPurpose } from './email-tokens.repository.js'

export const EMAIL_TOKEN_TTL_SECONDS: Readonly<Record<EmailTokenPurpose, number>> = {
  verify_email: 24 * 3600,
  reset_password: 30 * 60,
  invitation: 7 * 24 * 3600,
}

/** Recognisable prefixes, so a pasted secret shows what it is for (and secret scanners can match). */
const PREFIXES: Readonly<Record<EmailTokenPurpose, string>> = {
  verify_email: 'cev_',
  reset_password: 'crp_',
  invitation: 'cin_',
}

/** Stores a new single-use email token (its digest only) and returns the secret for the link. */
export async function createEmailToken(
  db: Executor,
  hasher: SecretHasher,
  input: { userId: string; purpose: EmailTokenPurpose; ttlSeconds?: number; organizationId?: string | null },
): Promise<string> {
  const secret = newSecret(PREFIXES[input.purpose])
  await repository.insertEmailToken(db, {
    tokenHash: hasher.digest(secret),
    userId: input.userId,
    purpose: input.purpose,
    organizationId: input.organizationId ?? null,
    ttlSeconds: input.ttlSeconds ?? EMAIL_TOKEN_TTL_SECONDS[input.purpose],
  })
  return secret
}

/** Reads a usable token without using it up, e.g. to check the rest of a request first. */
export function findUsableEmailToken(
  db: Executor,
  hasher: SecretHasher,
  secret: string,
  purpose: EmailTokenPurpose,
) {
  return repository.findUsableEmailToken(db, hasher.digest(secret), purpose)
}

/** Uses the token up atomically; undefined when it is unknown, used, expired or for another purpose. */
export function consumeEmailToken(
  db: Executor,
  hasher: SecretHasher,
  secret: string,
  purpose: EmailTokenPurpose,
) {
  return repository.consumeEmailToken(db, hasher.digest(secret), purpose)
}

export const retireEmailTokens = repository.retireEmailTokens
