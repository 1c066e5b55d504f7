import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type Config, ConfigError } from '../config.js'

/**
 * The web console (web/, built into web/dist by the install step) served by the Core API at `/`:
 * `index.html` (never cached: it names the current hashed assets), `/assets/*` (hashed names, so
 * cached for a year and immutable; the build writes .br and .gz copies beside each file and the
 * best one the browser accepts is sent), and `/console-config.json`, which tells the console where
 * the Global API is. The console talks only to the public APIs; it uses hash routes (`/#/customers`),
 * so no API path is ever answered with the page.
 */

/** src/console and dist/console both sit two levels below the repository root. */
const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url))
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000
const ACCESS = { access: { public: true } } as const

export interface ConsoleSettings {
  /** The Global API as the browser reaches it; absent = the page's own host on GLOBAL_PORT. */
  globalApiUrl: string | undefined
  /** A raster tile URL template ({z}/{x}/{y}, optional {s}); absent = the map draws vector data only. */
  tileUrl: string | undefined
  tileAttribution: string | undefined
}

/** CONSOLE_GLOBAL_API_URL, CONSOLE_TILE_URL, CONSOLE_TILE_ATTRIBUTION; bad values stop start-up. */
export function loadConsoleSettings(env: Readonly<Record<string, string | undefined>> = process.env) {
  const problems: string[] = []
  const url = (name: string, template: boolean): string | undefined => {
    const raw = env[name]?.trim()
    if (!raw) return undefined
    try {
      const parsed = new URL(template ? raw.replace(/\{[a-z]\}/g, '0') : raw)
      if (/^https?:$/.test(parsed.protocol)) return raw.replace(/\/+$/, '')
    } catch {}
    problems.push(`${name}=${JSON.stringify(raw)}: must be an http(s) URL`)
    return undefined
  }
  const settings: ConsoleSettings = {
    globalApiUrl: url('CONSOLE_GLOBAL_API_URL', false),
    tileUrl: url('CONSOLE_TILE_URL', true),
    tileAttribution: env.CONSOLE_TILE_ATTRIBUTION?.trim() || undefined,
  }
  if (settings.tileUrl && !/\{z\}.*\{x\}.*\{y\}/.test(settings.tileUrl))
    problems.push('CONSOLE_TILE_URL: must contain {z}, {x} and {y}')
  if (problems.length > 0) throw new ConfigError(problems)
  return settings
}

/**
 * Origins the Global API lets call it with credentials (the refresh cookie): CORS_ORIGINS, plus the
 * console's own origin on this machine (localhost, 127.0.0.1, [::1] on CORE_PORT), so `npm start`
 * works in a browser with no setting. Another host name needs its origin in CORS_ORIGINS.
 */
export function withConsoleOrigins<T extends Pick<Config, 'corsOrigins' | 'corePort'>>(config: T): T {
  if (config.corePort === 0) return config
  const own = ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${config.corePort}`)
  return { ...config, corsOrigins: [...new Set([...config.corsOrigins, ...own])] }
}

/** The CSP source of a URL or tile template: its origin, `{s}` (a subdomain letter) as a wildcard. */
export function sourceOf(url: string): string {
  const parsed = new URL(url.replace('{s}', 'subdomain-of-tiles').replace(/\{[a-z]\}/g, '0'))
  return `${parsed.protocol}//${parsed.host.replace('subdomain-of-tiles', '*')}`
}

/** Where the browser finds the Global API: as configured, or the page's host on GLOBAL_PORT. */
function globalApiUrl(request: FastifyRequest, config: Config, settings: ConsoleSettings): string | null {
  if (settings.globalApiUrl) return settings.globalApiUrl
  if (config.globalPort === 0) return null
  return `${request.protocol}://${request.hostname}:${config.globalPort}`
}

/** The page may load only its own files, call the two APIs, and show tiles from the tile server. */
function consolePolicy(globalUrl: string | null, settings: ConsoleSettings): string {
  const connect = ["'self'", ...(globalUrl ? [sourceOf(globalUrl)] : [])]
  const images = ["'self'", 'data:', 'blob:', ...(settings.tileUrl ? [sourceOf(settings.tileUrl)] : [])]
  return [
    "default-src 'self'",
    "base-uri 'self'",
    `connect-src ${connect.join(' ')}`,
    `img-src ${images.join(' ')}`,
    "font-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    "worker-src 'none'",
  ].join('; ')
}

export async function registerConsole(app: FastifyInstance, config: Config): Promise<void> {
  const settings = loadConsoleSettings()
  const built = existsSync(`${WEB_DIST}index.html`)
  await app.register(async (scope) => {
    scope.get('/console-config.json', { config: ACCESS, schema: { hide: true } }, async (request) => ({
      globalApiUrl: globalApiUrl(request, config, settings),
      tileUrl: settings.tileUrl ?? null,
      tileAttribution: settings.tileAttribution ?? null,
    }))
    if (!built) {
      scope.get('/', { config: ACCESS, schema: { hide: true } }, async (_request, reply) =>
        reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send(
            'The web console is not built: run `npm run build:console` (npm ci does it), then restart.\n',
          ),
      )
      return
    }
    // Only the reply decorator: the routes below declare their access like every other route.
    await scope.register(fastifyStatic, { root: WEB_DIST, serve: false, preCompressed: true, index: false })
    // Hashed file names: a new build has new names, so a cached copy is never stale.
    scope.get<{ Params: { '*': string } }>(
      '/assets/*',
      { config: ACCESS, schema: { hide: true } },
      async (request, reply) =>
        reply.sendFile(request.params['*'], `${WEB_DIST}assets`, { maxAge: ONE_YEAR_MS, immutable: true }),
    )
    const page = (file: string) => ({
      config: ACCESS,
      schema: { hide: true },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (file === 'index.html') {
          void reply
            .header(
              'content-security-policy',
              consolePolicy(globalApiUrl(request, config, settings), settings),
            )
            .header('cache-control', 'no-cache')
          return reply.sendFile(file, WEB_DIST, { cacheControl: false })
        }
        return reply.sendFile(file, WEB_DIST, { maxAge: 24 * 3600 * 1000, immutable: false })
      },
    })
    scope.get('/', page('index.html'))
    scope.get('/index.html', page('index.html'))
    scope.get('/favicon.svg', page('favicon.svg'))
  })
}
