import type { FastifyBaseLogger } from 'fastify'
import type { ApiFlavor } from '../http/envelopes.js'
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../http/kernel.js'
import type { AppDeps } from '../platform/deps.js'
import { type CartageModule, type OpenApiTag, schemaNamesOf } from '../platform/module.js'

export interface ApiDescription {
  title: string
  description: string
  securitySchemes: Record<string, unknown>
  /** Browser settings when they differ from the configuration's (the Global API adds the console's origin). */
  web?: HttpAppOptions['web']
  /** What the API sends to webhook subscribers (OpenAPI 3.1 `webhooks`). */
  webhooks?: HttpAppOptions['webhooks']
}

/** Each tag once, in module order; two modules describing one tag differently is a wiring mistake. */
export function tagsOf(modules: readonly CartageModule[], flavor: ApiFlavor): OpenApiTag[] {
  const tags = new Map<string, OpenApiTag>()
  for (const tag of modules.flatMap((m) => m[flavor]?.tags ?? [])) {
    const known = tags.get(tag.name)
    if (known && known.description !== tag.description)
      throw new Error(`OpenAPI tag ${tag.name} is declared with two descriptions`)
    tags.set(tag.name, tag)
  }
  return [...tags.values()]
}

/** One of the two APIs: the kernel, then the routes of every module that serves this API. */
export async function buildApi(
  flavor: ApiFlavor,
  api: ApiDescription,
  modules: readonly CartageModule[],
  deps: AppDeps,
  logger: FastifyBaseLogger | false,
): Promise<HttpApp> {
  const serving = modules.filter((m) => m[flavor])
  const app = await createHttpApp({
    flavor,
    ...api,
    database: deps.database,
    authenticator: deps.services.authenticator,
    logger,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    web: api.web ?? deps.config,
    tags: tagsOf(serving, flavor),
    schemaNames: schemaNamesOf(serving),
  })
  for (const module of serving) module[flavor]?.routes(app, deps, modules)
  return app
}
