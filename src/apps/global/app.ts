import type { FastifyBaseLogger } from 'fastify'
import { createHttpApp, type HttpApp } from '../../http/kernel.js'
import { registerApiKeyRoutes } from '../../modules/api-keys/api-keys.routes.js'
import { registerAuthRoutes } from '../../modules/auth/auth.routes.js'
import { registerEmailVerificationRoutes } from '../../modules/email-tokens/email-verification.routes.js'
import { registerCompleteInvitationRoutes } from '../../modules/invitations/complete-invitation.routes.js'
import { registerOneTimeTokenRoutes } from '../../modules/one-time-tokens/one-time-tokens.routes.js'
import { registerPasswordRoutes } from '../../modules/passwords/passwords.routes.js'
import { registerRegistrationRoutes } from '../../modules/registration/registration.routes.js'
import type { AppDeps } from '../deps.js'

export const GLOBAL_SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from login, select-organization, new-token or ott/redeem',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-dispatch-api-key',
    description: 'API key created with POST /api/auth/tokens',
  },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'cartage_refresh',
    description:
      'Refresh token set by login, select-organization and ott/redeem; HttpOnly, SameSite=Lax, Path=/api/auth',
  },
}

/** The Global API (identity): modules are registered explicitly, so the list below is the API. */
export async function buildGlobalApp(deps: AppDeps, logger: FastifyBaseLogger | false): Promise<HttpApp> {
  const app = await createHttpApp({
    flavor: 'global',
    title: 'Cartage Global API',
    description:
      'Identity for the Cartage platform: registration, sign-in, sessions, organisation selection, password reset, one-time hand-off tokens and API keys. ' +
      'Success bodies are SingleResult/PagedResult envelopes with a numeric statusCode; errors are RFC 9457 problem details (application/problem+json).',
    database: deps.database,
    authenticator: deps.services.authenticator,
    logger,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    securitySchemes: GLOBAL_SECURITY_SCHEMES,
    tags: [
      { name: 'Auth', description: 'Sign-in, sessions, one-time tokens and API keys' },
      { name: 'Organizations', description: 'Organisation registration' },
    ],
  })
  registerAuthRoutes(app, deps)
  registerApiKeyRoutes(app, deps)
  registerOneTimeTokenRoutes(app, deps)
  registerRegistrationRoutes(app, deps)
  registerEmailVerificationRoutes(app, deps)
  registerPasswordRoutes(app, deps)
  registerCompleteInvitationRoutes(app, deps)
  return app
}
