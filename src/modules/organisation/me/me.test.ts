import { describe, expect, it } from 'vitest'
import { addMembership, createApiKey, organizationIdOf } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, registerOrganization, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()

describe('GET /api/me', () => {
  it("shows a person all their organisations, and an API key only its own, not its creator's others", async () => {
    const owner = await ownerSession(ctx)
    const elsewhere = await registerOrganization(ctx)
    const otherOrganization = await organizationIdOf(ctx, elsewhere.businessId)
    await addMembership(ctx, otherOrganization, owner.org.userId, { role: 'Owner' })
    const own = await organizationIdOf(ctx, owner.org.businessId)

    const asPerson = (await owner.core({ url: '/api/me' })).json().data
    expect(asPerson.organizations.map((o: { id: string }) => o.id).sort()).toEqual(
      [own, otherOrganization].sort(),
    )

    const key = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
    const asKey = (await coreAs(ctx, { apiKey: key })({ url: '/api/me' })).json().data
    expect(asKey).toMatchObject({
      credential: 'ApiKey',
      organization: { id: own },
      currentBusinessId: owner.org.businessId,
    })
    expect(asKey.organizations.map((o: { id: string }) => o.id)).toEqual([own])
  })
})
