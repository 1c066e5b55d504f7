import { describe, expect, it } from 'vitest'
import { createApiKey } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()

/** What a client knows from registration: no currency or time zone. */
const FROM_REGISTRATION = {
  registeredName: 'Pascal Trading (Pty) Ltd',
  displayName: 'Pascal',
  email: 'ops@pascal.test',
  phoneNumber: '+27 21 555 0199',
  website: 'https://pascal.test',
  registrationNumber: '2026/000002/07',
  address: { fullAddress: '2 Main Road, Cape Town', city: 'Cape Town', country: 'ZA' },
}

describe('PUT /api/business/{businessId} with the fields known from registration', () => {
  it('succeeds and keeps the current currency and time zone, with both credential kinds', async () => {
    const { org, signedIn, core } = await ownerSession(ctx)
    const changed = await core({
      method: 'PUT',
      url: `/api/business/${org.businessId}`,
      payload: { ...FROM_REGISTRATION, currency: 'eur', timezone: 'Europe/Berlin' },
    })
    expect(changed.statusCode, changed.body).toBe(200)

    const apiKey = await createApiKey(ctx, signedIn.accessToken, org.businessId)
    for (const caller of [core, coreAs(ctx, { apiKey })]) {
      const response = await caller({
        method: 'PUT',
        url: `/api/business/${org.businessId}`,
        payload: FROM_REGISTRATION,
      })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json().data).toMatchObject({
        registeredName: 'Pascal Trading (Pty) Ltd',
        displayName: 'Pascal',
        registrationNumber: '2026/000002/07',
        currency: 'EUR',
        timezone: 'Europe/Berlin',
      })
    }
  })

  it('still requires the names and says so in the published description', async () => {
    const { org, core } = await ownerSession(ctx)
    const response = await core({
      method: 'PUT',
      url: `/api/business/${org.businessId}`,
      payload: { email: null },
    })
    expect(response.statusCode).toBe(400)
    expect(
      response
        .json()
        .reasons.map((r: { field: string }) => r.field)
        .sort(),
    ).toEqual(['displayName', 'registeredName'])
    const document = (await ctx.core.inject({ url: '/openapi.json' })).json()
    expect(document.paths['/api/business/{businessId}'].put.description).toContain(
      'keep their current values',
    )
  })
})
