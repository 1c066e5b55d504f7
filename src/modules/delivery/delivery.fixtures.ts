import { addMember, businessSession, createApiKey, sharedOrganisation } from '../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, type TestContext } from '../../../test/harness.js'

/**
 * A new business with its owner (bearer), an unrestricted API key, a Member and a key scoped to
 * `scopes`, in the file's shared organisation named `organisation` (`sharedOrganisation`): ask for
 * another name where the story needs another organisation, or null for an organisation of its own
 * (its registered business).
 */
export async function deliverySetup(
  ctx: TestContext,
  scopes: Record<string, number> = { Orders: 1 },
  organisation: string | null = 'first',
) {
  const owner =
    organisation === null
      ? await ownerSession(ctx)
      : await businessSession(ctx, await sharedOrganisation(ctx, organisation))
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
