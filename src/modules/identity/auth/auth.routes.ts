import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  AuthenticateRequest,
  JsonWebKeySet,
  LoginResponse,
  SelectOrganizationRequest,
  SessionResponse,
} from './auth.schemas.js'
import { clearRefreshCookie, REFRESH_COOKIE, readRefreshCookie, setRefreshCookie } from './refresh-cookie.js'
import * as sessions from './sessions.service.js'

const TAGS = ['Auth']
const SESSION = SingleResult('global', SessionResponse)

const bearerOf = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]

export function registerAuthRoutes(app: HttpApp, deps: AppDeps) {
  const { config } = deps

  app.post(
    '/api/auth/login',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'Login',
        summary: 'Sign in with email and password',
        description: `One membership: a session, and the refresh cookie \`${REFRESH_COOKIE}\` (HttpOnly, SameSite=Lax, Path=/api/auth). Several: a selection token valid 5 minutes for POST /api/auth/select-organization. A wrong email or password gives the same 401.`,
        tags: TAGS,
        body: AuthenticateRequest,
        response: SingleResult('global', LoginResponse),
        errors: [400, 401, 403, 429],
      },
    ),
    async (request, reply) => {
      const { email, password } = request.body
      const { response, issued } = await sessions.login(deps, email, password, request.ip)
      if (issued) setRefreshCookie(reply, config, issued.refreshToken, issued.refreshExpiresAt)
      return single('global', response)
    },
  )

  app.post(
    '/api/auth/select-organization',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'SelectOrganization',
        summary: 'Choose the organisation for a user with several, using the selection token as bearer',
        tags: TAGS,
        // No signed-in credential: the bearer is the selection token from login.
        security: [{ bearerAuth: [] }],
        body: SelectOrganizationRequest,
        response: SESSION,
        errors: [400, 401, 403],
      },
    ),
    async (request, reply) => {
      const issued = await sessions.selectOrganization(deps, bearerOf(request), request.body.organizationId)
      setRefreshCookie(reply, config, issued.refreshToken, issued.refreshExpiresAt)
      return single('global', issued.session)
    },
  )

  app.post(
    '/api/auth/new-token',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'NewToken',
        summary: 'Renew the access token with the refresh cookie (rotates the cookie)',
        description:
          'Each refresh token works once. Replaying a used one ends the whole session and answers 401.',
        tags: TAGS,
        security: [{ refreshCookie: [] }],
        response: SESSION,
        errors: [401],
      },
    ),
    async (request, reply) => {
      try {
        const issued = await sessions.refresh(deps, readRefreshCookie(request))
        setRefreshCookie(reply, config, issued.refreshToken, issued.refreshExpiresAt)
        return single('global', issued.session)
      } catch (error) {
        clearRefreshCookie(reply, config)
        throw error
      }
    },
  )

  app.post(
    '/api/auth/logout',
    operation(
      {
        signedIn: true,
        business: false,
        // Answering true would tell a key's caller it had ended something while the key works on.
        personOnly:
          'An API key has no session to end: an owner revokes the key with DELETE /api/auth/tokens/{id}.',
      },
      {
        api: 'global',
        operationId: 'Logout',
        summary: 'End the session',
        description:
          'Revokes the session and its refresh tokens; its access tokens are refused by the Core API within a second.',
        tags: TAGS,
        response: SingleResult('global', Type.Boolean()),
        errors: [],
      },
    ),
    async (request, reply) => {
      const done = await sessions.logout(deps, authOf(request), readRefreshCookie(request))
      clearRefreshCookie(reply, config)
      return single('global', done)
    },
  )

  app.get(
    '/.well-known/jwks.json',
    operation(
      { public: true },
      {
        api: 'global',
        operationId: 'GetJwks',
        summary: 'Public keys that verify access tokens (JWKS)',
        tags: TAGS,
        response: JsonWebKeySet,
        errors: [],
      },
    ),
    async () => deps.services.signer.jwks(),
  )
}
