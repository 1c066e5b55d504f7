import type { FastifyBaseLogger } from 'fastify'
import { withConsoleOrigins } from '../../console/console.js'
import { INPUT_RULES_DESCRIPTION } from '../../http/input-rules.js'
import { createHttpApp, type HttpApp } from '../../http/kernel.js'
import { registerApiKeyRoutes } from '../../modules/identity/api-keys/api-keys.routes.js'
import { registerAuthRoutes } from '../../modules/identity/auth/auth.routes.js'
import { registerEmailVerificationRoutes } from '../../modules/identity/email-tokens/email-verification.routes.js'
import { registerCompleteInvitationRoutes } from '../../modules/identity/invitations/complete-invitation.routes.js'
import { registerOneTimeTokenRoutes } from '../../modules/identity/one-time-tokens/one-time-tokens.routes.js'
import { registerPasswordRoutes } from '../../modules/identity/passwords/passwords.routes.js'
import { registerRegistrationRoutes } from '../../modules/identity/registration/registration.routes.js'
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
      'Success bodies are SingleResult/PagedResult envelopes with a numeric statusCode; errors are RFC 9457 problem details (application/problem+json).' +
      ` ${INPUT_RULES_DESCRIPTION}`,
    database: deps.database,
    authenticator: deps.services.authenticator,
    logger,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    web: withConsoleOrigins(deps.config),
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
