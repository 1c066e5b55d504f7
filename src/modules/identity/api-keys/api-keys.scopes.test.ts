import { describe, expect, it } from 'vitest'
import { type GlobalCaller, globalAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'

const ctx = useTestContext()

const createKey = (caller: GlobalCaller, payload: Record<string, unknown>) =>
  globalAs(ctx, caller)({ method: 'POST', url: '/api/auth/tokens', payload })
const coreWithKey = (apiKey: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.core.inject({ method, url, headers: { 'x-dispatch-api-key': apiKey }, ...(payload ? { payload } : {}) })

const NOTHING = Object.fromEntries(PERMISSION_MODULES.map((m) => [m, 0]))

async function owner() {
  const { org, signedIn } = await ownerSession(ctx)
  return { org, caller: { bearer: signedIn.accessToken } as GlobalCaller }
}

describe('API key scopes by module number', () => {
  it('takes a module by its number, keeps the text as given and shows it by name', async () => {
    const { org, caller } = await owner()
    const created = await createKey(caller, { businessId: org.businessId, scopes: '{"3": 1, "orders": 3}' })
    expect(created.statusCode, created.body).toBe(200)
    const key = created.json().data
    // Stored and returned as given (the contract), read by name alongside.
    expect(key.scopes).toBe('{"3": 1, "orders": 3}')
    expect(key.scopesByModule).toEqual({ ...NOTHING, Customers: 1, Orders: 3 })
    const listed = (await globalAs(ctx, caller)({ url: '/api/auth/tokens' })).json().data
    expect(listed).toEqual([
      expect.objectContaining({
        id: key.id,
        scopes: '{"3": 1, "orders": 3}',
        scopesByModule: { ...NOTHING, Customers: 1, Orders: 3 },
      }),
    ])

    // M3 is Customers: the key views customers, may not create one, and has no Products (M4).
    expect((await coreWithKey(key.token, 'GET', '/api/v1/Customers')).statusCode).toBe(200)
    expect((await coreWithKey(key.token, 'POST', '/api/v1/Customers', { name: 'No' })).statusCode).toBe(403)
    expect((await coreWithKey(key.token, 'GET', '/api/v1/products')).statusCode).toBe(403)
    expect((await coreWithKey(key.token, 'GET', '/api/v1/orders')).statusCode).toBe(200)
    const me = (await coreWithKey(key.token, 'GET', '/api/me')).json().data
    expect(me.permissions).toEqual({ ...NOTHING, Customers: 1, Orders: 3 })
  })

  it('shows an unrestricted key as null, and a key of the last module by number', async () => {
    const { org, caller } = await owner()
    const open = (await createKey(caller, { businessId: org.businessId })).json().data
    expect(open).toMatchObject({ scopes: null, scopesByModule: null })
    const last = PERMISSION_MODULES.length
    const schedule = await createKey(caller, { businessId: org.businessId, scopes: `{"${last}": 7}` })
    expect(schedule.json().data.scopesByModule).toEqual({ ...NOTHING, Schedule: 7 })
  })

  it('lets no key create keys, even one whose scopes grant TeamAndRoles by number', async () => {
    const { org, caller } = await owner()
    const parent = (
      await createKey(caller, { businessId: org.businessId, scopes: '{"7": 7, "3": 3}' })
    ).json().data
    const asParent = { apiKey: parent.token } as GlobalCaller
    const child = await createKey(asParent, { businessId: org.businessId, scopes: '{"Customers": 1}' })
    expect(child.statusCode).toBe(403)
    expect(child.json().code).toBe('api_key_not_allowed')
  })

  it('refuses an out-of-range number, an unknown name and a module given twice, naming the key', async () => {
    const { org, caller } = await owner()
    for (const [scopes, field] of [
      ['{"0": 1}', 'scopes.0'],
      ['{"17": 1}', 'scopes.17'],
      ['{"999": 1}', 'scopes.999'],
      ['{"-3": 1}', 'scopes.-3'],
      ['{"3.0": 1}', 'scopes.3.0'],
      ['{"M3": 1}', 'scopes.M3'],
      ['{"Teleporters": 1}', 'scopes.Teleporters'],
      ['{"3": 1, "customers": 1}', 'scopes.customers'],
      ['{"3": 8}', 'scopes.3'],
    ] as const) {
      const response = await createKey(caller, { businessId: org.businessId, scopes })
      expect(response.statusCode, scopes).toBe(400)
      expect(
        response.json().errors.map((e: { field: string }) => e.field),
        scopes,
      ).toEqual([field])
    }
    expect((await globalAs(ctx, caller)({ url: '/api/auth/tokens' })).json().totalCount).toBe(0)
  })
})
