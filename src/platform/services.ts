import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.js'
import { ChangeListener } from '../db/change-listener.js'
import type { Database } from '../db/database.js'
import { createMailer, type Mailer } from '../mail/mailer.js'
import { Authenticator, CREDENTIAL_CHANNEL } from '../security/authenticator.js'
import { RateLimiter } from '../security/rate-limiter.js'
import { loadSecretHasher, type SecretHasher } from '../security/secrets.js'
import { signingKeyFile, TokenSigner } from '../security/signing.js'
import { DomainEvents, type DomainEventWiring } from './domain-events.js'

/** Long-lived collaborators shared by both apps in a process. */
export interface Services {
  signer: TokenSigner
  hasher: SecretHasher
  authenticator: Authenticator
  mailer: Mailer
  rateLimiter: RateLimiter
  /** Every module's event handlers and declared events, whichever API this process serves. */
  events: DomainEvents
  /** Stops listening for credential changes (the database's own close does it too). */
  close(): Promise<void>
}

export async function createServices(
  config: Config,
  database: Database,
  logger: FastifyBaseLogger | false,
  wiring: { eventHandlers: DomainEventWiring; mailer?: Mailer },
): Promise<Services> {
  // One listener for the credentials channel: the authenticator's caches and the signer's keys.
  const credentialChanges = new ChangeListener(database, CREDENTIAL_CHANNEL)
  const signer = await TokenSigner.load(
    database.db,
    config.accessTokenTtlSeconds,
    config.jwtPrivateKey,
    signingKeyFile(config.dataDir),
    credentialChanges,
  )
  const hasher = await loadSecretHasher(database.db)
  const onBackgroundError = (error: unknown) => {
    if (logger) logger.warn({ err: error }, 'background write failed')
  }
  return {
    signer,
    hasher,
    authenticator: new Authenticator(database.db, signer, hasher, onBackgroundError, credentialChanges),
    mailer:
      wiring.mailer ??
      createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger }),
    rateLimiter: new RateLimiter(database.relaxedDb),
    events: new DomainEvents(wiring.eventHandlers),
    close: () => credentialChanges.close(),
  }
}
