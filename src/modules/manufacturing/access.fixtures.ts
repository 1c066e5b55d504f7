import { expect } from 'vitest'
import { createApiKey } from '../../../test/fixtures.js'
import { type Core, coreAs, type TestContext } from '../../../test/harness.js'

export interface RouteCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  payload?: object
}

/**
 * The credential checks every make-and-stock route gets: no credential -> 401; an API key scoped to
 * `module` with `bit` (1 view, 2 modify, 4 delete) passes authorisation; the same key without that
 * bit (every other bit and module granted) -> 403 permission_denied.
 */
export async function expectAccess(
  ctx: TestContext,
  owner: { signedIn: { accessToken: string }; org: { businessId: string } },
  module: string,
  bit: number,
  calls: readonly RouteCall[],
) {
  const key = (scopes: Record<string, number>) =>
    createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, { scopes: JSON.stringify(scopes) })
  const allowed: Core = coreAs(ctx, { apiKey: await key({ [module]: bit }) })
  const others = { Products: 7, WorkOrders: 7, Orders: 7, Settings: 7, [module]: 7 & ~bit }
  const refused: Core = coreAs(ctx, { apiKey: await key(others) })
  for (const call of calls) {
    const label = `${call.method} ${call.url}`
    const anonymous = await ctx.core.inject({ method: call.method, url: call.url, payload: call.payload })
    expect(anonymous.statusCode, `${label} anonymous`).toBe(401)
    const no = await refused(call)
    expect({ status: no.statusCode, code: no.json().code }, `${label} without ${module}:${bit}`).toEqual({
      status: 403,
      code: 'permission_denied',
    })
    const yes = await allowed(call)
    expect([401, 403], `${label} with ${module}:${bit} -> ${yes.body}`).not.toContain(yes.statusCode)
  }
}
