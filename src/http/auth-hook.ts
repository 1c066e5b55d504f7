import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { setActor } from '../db/actor.js'
import { AppError } from '../errors.js'
import type { Access, AuthContext, BusinessAuth } from '../security/auth-context.js'
import { type Authenticator, authErrors } from '../security/authenticator.js'
import { can } from '../security/permissions.js'
import type { ApiFlavor } from './envelopes.js'
import { addRouteHook, methodsOf } from './route-hooks.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const BEARER = /^Bearer\s+(\S+)\s*$/i
/** Routes outside the API surface need no declaration. */
const UNDECLARED_OK = /^(\/(docs|openapi\.json|health|metrics)(\/|$)|\*$)/

type Credential = { apiKey: string } | { token: string; businessId: string | null; needsBusiness: boolean }
type Done = (error?: Error) => void

/** One row of the permission table: what each API route requires (read by the permission matrix test). */
export interface DeclaredRoute {
  method: string
  url: string
  access: Access
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTable: readonly DeclaredRoute[]
  }
}

/** The caller of a route that declared it needs one; a bug (500) if a handler asks without one. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error(`route ${request.routeOptions.url} read auth but declares no credential`)
  return request.auth
}

/** Like authOf, for routes that act in a business: the business id is then always present. */
export function businessAuthOf(request: FastifyRequest): BusinessAuth {
  const auth = authOf(request)
  if (!auth.businessId) throw new Error(`route ${request.routeOptions.url} needs a business but has none`)
  return auth as BusinessAuth
}

/**
 * Every API route declares its access (public, signed in, or a module permission) in
 * `config.access`; a route without one is refused at start-up, so none ships unprotected by accident.
 */
export function installAuthentication(app: FastifyInstance, flavor: ApiFlavor, authenticator: Authenticator) {
  app.decorateRequest('auth', null)
  const table: DeclaredRoute[] = []
  app.decorate('accessTable', table)
  app.addHook('onRoute', (route) => {
    const access = route.config?.access
    if (!UNDECLARED_OK.test(route.url)) {
      if (!access) throw new Error(`${route.method} ${route.url} declares no access (config.access)`)
      for (const method of methodsOf(route)) {
        if (method !== 'HEAD') table.push({ method, url: route.url, access })
      }
    }
    // Public routes (health, sign-in, soft checks) carry no authentication hook at all; the others
    // get one made for their access, ahead of the route's own hooks (its rate limits).
    if (access && !('public' in access)) addRouteHook(route, 'onRequest', authenticationHook(access))
  })

  function authenticationHook(access: Exclude<Access, { public: true }>) {
    const needsBusiness = 'permission' in access || access.business
    const permission = 'permission' in access ? access.permission : undefined
    const personOnly = access.personOnly
    /** The credential's context on the request, as the actor, and the route's rights checked. */
    const admit = (request: FastifyRequest, auth: AuthContext) => {
      request.auth = auth
      if (auth.kind === 'apiKey' && auth.apiKeyId) setActor('ApiKey', auth.apiKeyId, request.id)
      else setActor('User', auth.userId, request.id)
      // Before the permission: a key is refused here whatever its scopes, and the answer says why.
      if (personOnly && auth.kind === 'apiKey') throw authErrors.personOnly(personOnly)
      if (permission && !can(auth.permissions, permission[0], permission[1])) {
        throw new AppError(
          403,
          'permission_denied',
          `This credential lacks ${permission[1]} on ${permission[0]}.`,
        )
      }
    }
    const fromCredential = (request: FastifyRequest, credential: Credential, done: Done) => {
      let auth: AuthContext | undefined
      try {
        auth = cached(credential)
        if (auth) admit(request, auth)
      } catch (error) {
        return done(error as Error)
      }
      if (auth) return done()
      verified(credential).then((verifiedAuth) => {
        try {
          admit(request, verifiedAuth)
        } catch (error) {
          return done(error as Error)
        }
        done()
      }, done)
    }
    // A callback hook: a credential this process knows answers without a promise of its own (the
    // usual request); one it must verify or read goes the asynchronous way.
    return (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
      let credential: Credential
      try {
        credential = credentialOf(request, needsBusiness)
      } catch (error) {
        return done(error as Error)
      }
      const settling = authenticator.beforeTrustingCaches()
      if (!settling) return fromCredential(request, credential, done)
      settling.then(() => fromCredential(request, credential, done), done)
    }
  }

  /** What the request presents: an API key, or a bearer token with the business it names. */
  function credentialOf(request: FastifyRequest, needsBusiness: boolean): Credential {
    const apiKey = request.headers['x-dispatch-api-key']
    if (typeof apiKey === 'string' && apiKey !== '') return { apiKey }
    const header = request.headers.authorization
    const match = typeof header === 'string' ? BEARER.exec(header) : null
    if (!match?.[1]) throw authErrors.missing()
    const rawBusiness = request.headers['x-business-id']
    const businessId =
      needsBusiness && typeof rawBusiness === 'string' && rawBusiness !== '' ? rawBusiness : null
    if (businessId && !UUID.test(businessId)) throw authErrors.business()
    return { token: match[1], businessId: businessId?.toLowerCase() ?? null, needsBusiness }
  }

  function cached(credential: Credential): AuthContext | undefined {
    if ('apiKey' in credential) return authenticator.cachedApiKey(credential.apiKey)
    const auth = authenticator.cachedBearer(credential.token, credential.businessId)
    if (auth && credential.needsBusiness && !auth.businessId) throw authErrors.business()
    return auth
  }

  async function verified(credential: Credential): Promise<AuthContext> {
    if ('apiKey' in credential) return authenticator.apiKey(credential.apiKey)
    const auth = await authenticator.bearer(
      credential.token,
      credential.businessId,
      flavor === 'core' ? 403 : 401,
    )
    if (credential.needsBusiness && !auth.businessId) throw authErrors.business()
    return auth
  }
}
