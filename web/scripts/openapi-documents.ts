import { buildCoreApp } from '../../src/apps/core/app.js'
import { buildGlobalApp } from '../../src/apps/global/app.js'
import { loadConfig } from '../../src/config.js'
import type { HttpApp } from '../../src/http/kernel.js'
import type { AppDeps } from '../../src/platform/deps.js'

export type OpenApiDocument = Record<string, unknown>

/**
 * Whatever the apps touch while being built must not be used until a request comes; a request
 * never comes here, so any use is a mistake that fails loudly rather than quietly.
 */
function inert(name: string): unknown {
  return new Proxy(() => {}, {
    get(_target, property) {
      // `await` looks for `then`: this is not a promise.
      if (property === 'then') return undefined
      return inert(`${name}.${String(property)}`)
    },
    apply() {
      throw new Error(`${name}() was called while only building the apps for their OpenAPI documents`)
    },
  })
}

/**
 * The two OpenAPI documents exactly as the servers publish them at /openapi.json, from the apps
 * built in this process: no server, no database (the routes only keep references to it).
 */
export async function openApiDocuments(): Promise<{ core: OpenApiDocument; global: OpenApiDocument }> {
  const deps = {
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    database: inert('database'),
    services: inert('services'),
  } as AppDeps
  const apps: HttpApp[] = []
  try {
    const core = await buildCoreApp(deps, false)
    apps.push(core)
    const global = await buildGlobalApp(deps, false)
    apps.push(global)
    await Promise.all(apps.map((app) => app.ready()))
    return { core: core.swagger() as OpenApiDocument, global: global.swagger() as OpenApiDocument }
  } finally {
    await Promise.all(apps.map((app) => app.close()))
  }
}
