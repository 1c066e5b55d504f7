import type { FastifyBaseLogger } from 'fastify'
import { createHttpApp, type HttpApp } from '../../http/kernel.js'
import type { AppDeps } from '../deps.js'

export const CORE_SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from the Global API; send X-Business-Id with it',
  },
  businessId: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Business-Id',
    description: 'The business the bearer-token request acts in',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-dispatch-api-key',
    description: 'API key; acts for the business it was created for',
  },
}

/** Either credential kind: bearer token with X-Business-Id, or an API key. */
export const CORE_SECURITY = [{ bearerAuth: [], businessId: [] }, { apiKey: [] }]

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
    tags: [],
  })
  return app
}
