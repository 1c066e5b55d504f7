import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.js'
import { ChangeListener } from '../db/change-listener.js'
import type { Database } from '../db/database.js'
import { createMailer, type Mailer, type MailMessage } from '../mail/mailer.js'
import { Authenticator, CREDENTIAL_CHANNEL } from '../security/authenticator.js'
import { PasswordWork } from '../security/password-work.js'
import { limitInstance, RateLimiter } from '../security/rate-limiter.js'
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
  /** Sign-in password checks, shared fairly between accounts (security/password-work.ts). */
  passwordWork: PasswordWork
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
  // An organisation's record changed (a move to another cluster notifies it): placements are read again.
  const clusters = database.clusters
  if (clusters) {
    credentialChanges.subscribe(() => clusters.forget())
    credentialChanges.start()
  }
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
  const rateLimiter = new RateLimiter(database.relaxedDb)
  const mailer =
    wiring.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger })
  return {
    signer,
    hasher,
    authenticator: new Authenticator(database.db, signer, hasher, onBackgroundError, credentialChanges),
    mailer: limitedMailer(mailer, config.mailsPerHour, (message) => {
      if (logger) logger.warn(message)
    }),
    rateLimiter,
    passwordWork: new PasswordWork(),
    events: new DomainEvents(wiring.eventHandlers),
    close: () => credentialChanges.close(),
  }
}

/**
 * The instance's outgoing mail, at most `perHour` an hour from all senders together: past it a
 * send fails (each caller already treats a failed send: logged, or 503 for an invitation) and the
 * operator is warned once in the window.
 */
function limitedMailer(mailer: Mailer, perHour: number, log: (message: string) => void): Mailer {
  const budget = limitInstance('mail', perHour, log)
  return {
    async send(message: MailMessage) {
      await budget()
      await mailer.send(message)
    },
  }
}
