import { addMember, createApiKey } from '../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, type TestContext } from '../../../test/harness.js'

/** An organisation with its owner (bearer), an unrestricted API key, a Member and a key scoped to `scopes`. */
export async function deliverySetup(ctx: TestContext, scopes: Record<string, number> = { Orders: 1 }) {
  const owner = await ownerSession(ctx)
  const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
  const scopedKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId, {
    scopes: JSON.stringify(scopes),
  })
  const member = await addMember(ctx, owner.org.businessId, { role: 'Member' })
  return {
    ...owner,
    key: coreAs(ctx, { apiKey }),
    scoped: coreAs(ctx, { apiKey: scopedKey }),
    member: member.core,
  }
}

export const post = (core: Core, url: string, payload?: unknown) =>
  core({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) })

export const put = (core: Core, url: string, payload: unknown) =>
  core({ method: 'PUT', url, payload: payload as object })

/** A delivery address at a point, as the API takes it. */
export const at = (latitude: number, longitude: number, fullAddress = 'somewhere') => ({
  fullAddress,
  latitude,
  longitude,
})
