import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { MeResponse } from './me.schemas.js'
import { getMe } from './me.service.js'

export function registerMeRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/me',
    operation(
      { signedIn: true, business: false },
      {
        operationId: 'GetMe',
        summary: 'The caller: user, organisations, businesses, role and effective permissions',
        description:
          'Needs no X-Business-Id; if one is sent it is ignored except as currentBusinessId for API keys.',
        tags: ['Me'],
        // The Core API's usual requirement: X-Business-Id may be sent here, though none is needed.
        security: CORE_SECURITY,
        response: SingleResult('core', MeResponse),
        errors: [],
      },
    ),
    async (request) => single('core', await getMe(database, authOf(request))),
  )
}
