import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DeclaredRoute } from '../../src/http/auth-hook.js'
import {
  ACTIONS,
  type Action,
  PERMISSION_MODULES,
  type PermissionModule,
} from '../../src/security/permissions.js'
import { addMember, addRole, createApiKey, organizationIdOf } from '../fixtures.js'
import { type Credential, credentialHeaders, ownerSession, useTestContext } from '../harness.js'
import { SPEC_PERMISSIONS } from './spec-permissions.js'

// Derived from the permission table every route declares (`config.access`): for each Core API
// route and each kind of caller, the request is refused with 403 exactly when the caller's role
// or scopes lack the route's module action. Path ids are random, so an allowed call ends in 400/404,
// never 401/403.

const ctx = useTestContext()
let owner: Awaited<ReturnType<typeof ownerSession>>
const callers: Record<string, Credential> = {}
let routes: (DeclaredRoute & {
  access: { permission: readonly [PermissionModule, Action]; personOnly?: string }
})[]

const urlOf = (route: DeclaredRoute) =>
  route.url.replace(/:(\w+)/g, (_, name: string) => (name === 'module' ? 'Orders' : randomUUID()))

async function call(route: DeclaredRoute, credential: Credential | null, app = ctx.core) {
  const response = await app.inject({
    method: route.method as 'GET',
    url: urlOf(route),
    headers: credential ? credentialHeaders(credential) : {},
    ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
  })
  return { status: response.statusCode, code: (response.json() as { code?: string }).code }
}

async function apiKey(scopes: Record<string, number> | null): Promise<Credential> {
  const token = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
    label: 'matrix',
    scopes: scopes ? JSON.stringify(scopes) : undefined,
  })
  return { apiKey: token }
}

beforeAll(async () => {
  owner = await ownerSession(ctx)
  // A server-sent event stream never ends, so an injected call would wait forever; its 401/403 are
  // tested in its own suite (notification-stream.test.ts).
  routes = ctx.core.accessTable.filter(
    (r): r is (typeof routes)[number] => 'permission' in r.access && !r.url.endsWith('/stream'),
  )
  callers.admin = (await addMember(ctx, owner.org.businessId, { role: 'Admin' })).credential
  callers.member = (await addMember(ctx, owner.org.businessId, { role: 'Member' })).credential
  const nothing = await addRole(ctx, await organizationIdOf(ctx, owner.org.businessId), {})
  callers.noRights = (
    await addMember(ctx, owner.org.businessId, { role: 'Custom', customRoleId: nothing })
  ).credential
  callers.unscopedKey = await apiKey(null)
  callers.emptyScopesKey = await apiKey({})
})

describe('permission table', () => {
  it('declares, for every spec operation that exists, exactly the permission the spec lists', () => {
    const declared = new Map(
      ctx.core.accessTable.map((r) => [
        `${r.method} ${r.url.toLowerCase().replace(/:(\w+)/g, '{}')}`,
        r.access,
      ]),
    )
    const checked: string[] = []
    for (const row of SPEC_PERMISSIONS) {
      const access = declared.get(`${row.method} ${row.path.toLowerCase().replace(/\{\w+\}/g, '{}')}`)
      if (!access || !row.permission) continue
      checked.push(row.operationId)
      expect('permission' in access ? access.permission : access, row.operationId).toEqual(row.permission)
    }
    expect(checked.length).toBeGreaterThan(20)
  })

  it('has routes to check', () => {
    expect(routes.length).toBeGreaterThan(30)
  })
})

type Rule = (module: PermissionModule, action: Action) => boolean
describe.each<[string, Rule]>([
  ['owner', () => true],
  ['admin', (m) => m !== 'Billing'],
  ['member', (_m, a) => a === 'View'],
  ['noRights', () => false],
  ['unscopedKey', () => true],
  ['emptyScopesKey', () => false],
])('%s', (name, allowed) => {
  it('is refused exactly where its rights end', async () => {
    const credential = name === 'owner' ? owner.credential : callers[name]
    if (!credential) throw new Error(`no credential for ${name}`)
    for (const route of routes) {
      const [module, action] = route.access.permission
      const { status, code } = await call(route, credential)
      const label = `${name} ${route.method} ${route.url} (${module} ${action}) -> ${status} ${code}`
      if (route.access.personOnly && 'apiKey' in credential)
        expect({ status, code }, label).toEqual({ status: 403, code: 'api_key_not_allowed' })
      else if (allowed(module, action)) expect([401, 403], label).not.toContain(status)
      else expect({ status, code }, label).toEqual({ status: 403, code: 'permission_denied' })
    }
  })
})

describe('scoped API keys', () => {
  it('open each route with exactly its module action, and no other bit opens it', async () => {
    const keys = new Map<string, Credential>()
    const keyFor = async (scopes: Record<string, number>) => {
      const id = JSON.stringify(scopes)
      if (!keys.has(id)) keys.set(id, await apiKey(scopes))
      return keys.get(id) as Credential
    }
    for (const route of routes) {
      if (route.access.personOnly) continue // no key at all: below
      const [module, action] = route.access.permission
      const bit = ACTIONS[action]
      const exact = await call(route, await keyFor({ [module]: bit }))
      expect([401, 403], `${route.method} ${route.url} with ${module}:${bit}`).not.toContain(exact.status)
      const others = Object.fromEntries(PERMISSION_MODULES.map((m) => [m, m === module ? 7 & ~bit : 7]))
      const without = await call(route, await keyFor(others))
      expect(without, `${route.method} ${route.url} without ${module}:${bit}`).toEqual({
        status: 403,
        code: 'permission_denied',
      })
    }
  })
})

describe('routes only a person may call', () => {
  it('are these, and refuse every API key with 403 api_key_not_allowed on both APIs', async () => {
    const personOnly = (app: typeof ctx.core) =>
      app.accessTable.filter((r) => !('public' in r.access) && r.access.personOnly)
    const names = (list: DeclaredRoute[]) => list.map((r) => `${r.method} ${r.url}`).sort()
    // A key has no person behind it: it neither acts on a person's session or notifications nor
    // hands out credentials of its own (see docs/security.md).
    expect(names(personOnly(ctx.core))).toEqual([
      'GET /api/notification',
      'GET /api/notifications/stream',
      'GET /api/notifications/user',
      'PATCH /api/notification/:id',
      'PATCH /api/notification/mark-all-read',
    ])
    expect(names(personOnly(ctx.global))).toEqual([
      'POST /api/auth/logout',
      'POST /api/auth/ott',
      'POST /api/auth/tokens',
    ])
    // The published documents say so: no API key in the operation's security, the 403 in its words.
    for (const app of [ctx.core, ctx.global]) {
      const paths = (await app.inject({ url: '/openapi.json' })).json().paths
      for (const route of personOnly(app)) {
        const operation = paths[route.url.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()]
        const label = `${route.method} ${route.url}`
        expect(JSON.stringify(operation.security), label).not.toContain('apiKey')
        expect(operation.description, label).toContain('Not for API keys (403 api_key_not_allowed)')
        expect(operation.responses, label).toHaveProperty('403')
      }
    }
    const everything = await apiKey(null)
    for (const [app, route] of [
      ...personOnly(ctx.core).map((r) => [ctx.core, r] as const),
      ...personOnly(ctx.global).map((r) => [ctx.global, r] as const),
    ]) {
      expect(await call(route, everything, app), `${route.method} ${route.url}`).toEqual({
        status: 403,
        code: 'api_key_not_allowed',
      })
    }
  })
})

describe('no credential', () => {
  it('is 401 on every route that is not public', async () => {
    for (const route of ctx.core.accessTable) {
      if ('public' in route.access) continue
      const { status, code } = await call(route, null)
      expect({ status, code }, `${route.method} ${route.url}`).toEqual({
        status: 401,
        code: 'missing_credential',
      })
    }
  })
})
