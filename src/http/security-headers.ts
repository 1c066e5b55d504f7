import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet, { type HelmetOptions } from 'helmet'

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
 * The headers helmet sets for `options`, computed once. None of ours depends on the request, and
 * helmet's middleware would otherwise rebuild every header (the CSP parsed again) on each request.
 */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
  }
  let called = false
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error
    called = true
  })
  // helmet's middleware is synchronous; should a release change that, fail at start, not silently.
  if (!called || !headers['content-security-policy']) throw new Error('helmet set no headers synchronously')
  return Object.freeze(headers)
}

/**
 * Security headers on every response (helmet's defaults with the API's CSP), computed once; the
 * kernel sets them on request (kernel.ts), so errors and 404s carry them too, and adds
 * `Cache-Control: no-store` on every response whose route did not choose its own caching: API
 * answers carry tokens (login, select-organization, new-token, ott, API keys) and tenant data that
 * no shared or browser cache should keep. The /docs routes replace the CSP with `DOCS_CSP` when
 * they send.
 */
export const securityHeaders = (): Readonly<Record<string, string>> =>
  helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    // HSTS is a decision for the TLS terminator in front of us, not for a plain-http process.
    strictTransportSecurity: false,
  })
