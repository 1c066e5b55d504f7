import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import type { ApiFlavor } from './envelopes.js'

/**
 * Cross-origin access for browser clients on the origins listed in `CORS_ORIGINS` (none by default,
 * so the plugin is not even registered). The Global API allows credentials: a web app on another
 * origin renews its session with the HttpOnly refresh cookie. Preflights are answered with 204.
 */
export async function installCors(app: FastifyInstance, flavor: ApiFlavor, origins: readonly string[]) {
  if (origins.length === 0) return
  await app.register(cors, {
    origin: [...origins],
    credentials: flavor === 'global',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // Request headers are reflected from the preflight, so X-Business-Id and x-dispatch-api-key pass.
    exposedHeaders: ['x-request-id', 'retry-after', 'content-disposition', 'location', 'idempotent-replayed'],
    maxAge: 600,
    preflight: true,
    strictPreflight: false,
  })
}
