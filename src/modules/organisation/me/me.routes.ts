import { Type } from '@sinclair/typebox'
import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { Nullable, Uuid } from '../../../http/schema-helpers.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'
import { getMe } from './me.service.js'

const Me = Type.Object({
  user: Type.Object({
    id: Uuid(),
    displayName: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    phoneNumber: Nullable(Type.String()),
    emailVerified: Type.Boolean(),
  }),
  credential: Type.String({ description: 'User (bearer token) or ApiKey' }),
  organization: Type.Object({ id: Uuid(), slug: Type.String(), name: Type.String() }),
  organizations: Type.Array(
    Type.Object({ id: Uuid(), slug: Type.String(), name: Type.String(), isOwner: Type.Boolean() }),
  ),
  businesses: Type.Array(
    Type.Object({ id: Uuid(), displayName: Type.String(), parentBusinessId: Nullable(Uuid()) }),
  ),
  currentBusinessId: Nullable(Uuid()),
  role: Type.String({ description: 'Owner, Admin, Member or Custom' }),
  customRole: Nullable(Type.Object({ id: Uuid(), name: Type.String() })),
  isOwner: Type.Boolean(),
  permissions: Type.Record(Type.String(), Type.Integer(), {
    description: `Effective bitmask per module (1 view, 2 modify, 4 delete) over ${PERMISSION_MODULES.join(', ')}`,
  }),
})

export function registerMeRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/me',
    {
      config: { access: { signedIn: true, business: false } },
      schema: {
        operationId: 'GetMe',
        summary: 'The caller: user, organisations, businesses, role and effective permissions',
        description:
          'Needs no X-Business-Id; if one is sent it is ignored except as currentBusinessId for API keys.',
        tags: ['Me'],
        security: CORE_SECURITY,
        response: { 200: SingleResult('core', Me), ...errorResponses('core', 401, 403) },
      },
    },
    async (request) => single('core', await getMe(deps.database, authOf(request))),
  )
}
