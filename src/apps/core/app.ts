import type { FastifyBaseLogger } from 'fastify'
import { registerConsole } from '../../console/console.js'
import { INPUT_RULES_DESCRIPTION } from '../../http/input-rules.js'
import type { HttpApp } from '../../http/kernel.js'
import { CORE_SECURITY_SCHEMES } from '../../http/security-schemes.js'
import { webhooksForOpenApi } from '../../modules/integrations/webhooks/webhooks.openapi.js'
import type { AppDeps } from '../../platform/deps.js'
import { backgroundWorkOf, type CartageModule, declaredEventsOf } from '../../platform/module.js'
import { buildApi } from '../build-app.js'
import { MODULES } from '../modules.js'

/** The Core API (business data): the kernel and every module's Core routes (apps/modules.ts). */
export async function buildCoreApp(
  deps: AppDeps,
  logger: FastifyBaseLogger | false,
  /**
   * A served Core API (`cartage serve`) also runs the modules' background work while it listens:
   * their workers and periodic tasks (webhook deliveries, the overdue purchase order sweep).
   */
  background: { workers?: boolean } = {},
  /** The modules it is built from (a test adds a module of its own). */
  modules: readonly CartageModule[] = MODULES,
): Promise<HttpApp> {
  const app = await buildApi(
    'core',
    {
      title: 'Cartage Core API',
      description:
        'Business data of the Cartage platform. Success bodies are SingleResult/PagedResult envelopes whose statusCode is the status name (e.g. "OK"); ' +
        'errors are { message, code, reasons[] } with one reason per invalid field. Paths match regardless of letter case.' +
        ` ${INPUT_RULES_DESCRIPTION}`,
      securitySchemes: CORE_SECURITY_SCHEMES,
      // From the declarations, not the services: the documents are also built with no services (web/scripts).
      webhooks: webhooksForOpenApi(declaredEventsOf(modules)),
    },
    modules,
    deps,
    logger,
  )
  // The web console at / (console/console.ts), beside the API's own paths.
  await registerConsole(app, deps.config)
  if (background.workers) {
    for (const worker of backgroundWorkOf(modules, deps, logger)) {
      app.addHook('onReady', async () => worker.start())
      app.addHook('onClose', () => worker.stop())
    }
  }
  return app
}
