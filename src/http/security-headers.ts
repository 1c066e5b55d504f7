import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * The API answers JSON only, so its pages may load nothing and be framed by nobody. The /docs
 * reference overrides this with `DOCS_CSP`, which lets Swagger UI load its own scripts and styles
 * (served by us, never from a CDN).
 */
const API_CSP = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
}

/** Swagger UI's page: own assets, inline style attributes it sets at run time, data: icons. */
export const DOCS_CSP = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
}

/**
 * Security headers on every response (helmet's defaults with the API's CSP), and
 * `Cache-Control: no-store` on every response whose route did not choose its own caching: API
 * answers carry tokens (login, select-organization, new-token, ott, API keys) and tenant data that
 * no shared or browser cache should keep.
 */
export async function installSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    // HSTS is a decision for the TLS terminator in front of us, not for a plain-http process.
    strictTransportSecurity: false,
  })
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store')
    return payload
  })
}
