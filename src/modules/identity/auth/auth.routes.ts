import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { authOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  AuthenticateRequest,
  LoginResponse,
  SelectOrganizationRequest,
  SessionResponse,
} from './auth.schemas.js'
import { clearRefreshCookie, REFRESH_COOKIE, readRefreshCookie, setRefreshCookie } from './refresh-cookie.js'
import * as sessions from './sessions.service.js'

const bearerOf = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
const SIGNED_IN: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKey: [] }]

export function registerAuthRoutes(app: HttpApp, deps: AppDeps) {
  const { config } = deps

  app.post(
    '/api/auth/login',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'Login',
        summary: 'Sign in with email and password',
        description: `One membership: a session, and the refresh cookie \`${REFRESH_COOKIE}\` (HttpOnly, SameSite=Lax, Path=/api/auth). Several: a selection token valid 5 minutes for POST /api/auth/select-organization. A wrong email or password gives the same 401.`,
        tags: ['Auth'],
        security: [],
        body: AuthenticateRequest,
        response: {
          200: SingleResult('global', LoginResponse),
          ...errorResponses('global', 400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const { response, issued } = await sessions.login(
        deps,
        request.body.email,
        request.body.password,
        request.ip,
      )
      if (issued) setRefreshCookie(reply, config, issued.refreshToken, issued.refreshExpiresAt)
      return single('global', response)
    },
  )

  app.post(
    '/api/auth/select-organization',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'SelectOrganization',
        summary: 'Choose the organisation for a user with several, using the selection token as bearer',
        tags: ['Auth'],
        security: [{ bearerAuth: [] }],
        body: SelectOrganizationRequest,
        response: {
          200: SingleResult('global', SessionResponse),
          ...errorResponses('global', 400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const issued = await sessions.selectOrganization(deps, bearerOf(request), request.body.organizationId)
      setRefreshCookie(reply, config, issued.refreshToken, issued.refreshExpiresAt)
      return single('global', issued.session)
    },
  )

  app.post(
    '/api/auth/new-token',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'NewToken',
        summary: 'Renew the access token with the refresh cookie (rotates the cookie)',
        description:
          'Each refresh token works once. Replaying a used one ends the whole session and answers 401.',
        tags: ['Auth'],
        security: [{ refreshCookie: [] }],
        response: { 200: SingleResult('global', SessionResponse), ...errorResponses('global', 401) },
      },
    },
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
    {
      config: { access: { signedIn: true, business: false } },
      schema: {
        operationId: 'Logout',
        summary: 'End the session',
        description:
          'Revokes the session and its refresh tokens; its access tokens are refused by the Core API within a second.',
        tags: ['Auth'],
        security: SIGNED_IN,
        response: { 200: SingleResult('global', Type.Boolean()), ...errorResponses('global', 401) },
      },
    },
    async (request, reply) => {
      const done = await sessions.logout(deps, authOf(request), readRefreshCookie(request))
      clearRefreshCookie(reply, config)
      return single('global', done)
    },
  )

  app.get(
    '/.well-known/jwks.json',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'GetJwks',
        summary: 'Public keys that verify access tokens (JWKS)',
        tags: ['Auth'],
        security: [],
        response: {
          200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }),
          ...errorResponses('global'),
        },
      },
    },
    async () => deps.services.signer.jwks(),
  )
}
