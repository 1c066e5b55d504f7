import type { FastifyBaseLogger } from 'fastify'
import { withConsoleOrigins } from '../../console/console.js'
import { INPUT_RULES_DESCRIPTION } from '../../http/input-rules.js'
import type { HttpApp } from '../../http/kernel.js'
import { GLOBAL_SECURITY_SCHEMES } from '../../http/security-schemes.js'
import type { AppDeps } from '../../platform/deps.js'
import { buildApi } from '../build-app.js'
import { MODULES } from '../modules.js'

/** The Global API (identity): the kernel and every module's Global routes (apps/modules.ts). */
export async function buildGlobalApp(deps: AppDeps, logger: FastifyBaseLogger | false): Promise<HttpApp> {
  return buildApi(
    'global',
    {
      title: 'Cartage Global API',
      description:
        'Identity for the Cartage platform: registration, sign-in, sessions, organisation selection, password reset, one-time hand-off tokens and API keys. ' +
        'Success bodies are SingleResult/PagedResult envelopes with a numeric statusCode; errors are RFC 9457 problem details (application/problem+json).' +
        ` ${INPUT_RULES_DESCRIPTION}`,
      securitySchemes: GLOBAL_SECURITY_SCHEMES,
      // The console, served by the Core API, calls this API from its origin.
      web: withConsoleOrigins(deps.config),
    },
    MODULES,
    deps,
    logger,
  )
}
