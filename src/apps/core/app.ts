import type { FastifyBaseLogger } from 'fastify'
import { createHttpApp, type HttpApp } from '../../http/kernel.js'
import { registerMeRoutes } from '../../modules/me/me.routes.js'
import type { AppDeps } from '../deps.js'
import { CORE_SECURITY_SCHEMES } from './security.js'

/** The Core API (business data): modules are registered explicitly, so the list below is the API. */
export async function buildCoreApp(deps: AppDeps, logger: FastifyBaseLogger | false): Promise<HttpApp> {
  const app = await createHttpApp({
    flavor: 'core',
    title: 'Cartage Core API',
    description:
      'Business data of the Cartage platform. Success bodies are SingleResult/PagedResult envelopes whose statusCode is the status name (e.g. "OK"); ' +
      'errors are { message, code, reasons[] } with one reason per invalid field. Paths match regardless of letter case.',
    database: deps.database,
    authenticator: deps.services.authenticator,
    logger,
    bodyLimit: deps.config.bodyLimit,
    securitySchemes: CORE_SECURITY_SCHEMES,
    tags: [
      { name: 'Me', description: 'The caller and their rights' },
      // (module tags: one line each)
    ],
  })
  registerMeRoutes(app, deps)
  // (module registrations: one line each)
  return app
}
