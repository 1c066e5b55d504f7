import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf, schemaOf } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { CARRIERS } from './catalogue.js'
import { credentialsContext, decryptCredentials } from './credentials-cipher.js'

const KEY = 'ab'.repeat(32)
const ctx = useTestContext({ CARRIER_CREDENTIALS_KEY: KEY })
const SECRET = 'sk_live_very-secret-value'

describe('carriers', () => {
  it('has a catalogue of at least 20 real providers with unique stable ids', async () => {
    expect(CARRIERS.length).toBeGreaterThanOrEqual(20)
    expect(new Set(CARRIERS.map((c) => c.id)).size).toBe(CARRIERS.length)
    for (const name of [
      'The Courier Guy',
      'Aramex',
      'PostNet',
      'UPS',
      'FedEx',
      'USPS',
      'Royal Mail',
      'DPD',
      'Evri',
      'GLS',
      'Australia Post',
      'Sendle',
      'StarTrack',
      'Own fleet',
    ]) {
      expect(
        CARRIERS.some((c) => c.name === name),
        name,
      ).toBe(true)
    }
    const { core, key } = await deliverySetup(ctx)
    const all = (await core({ url: '/api/carriers' })).json()
    expect(all.totalCount).toBe(CARRIERS.length)
    expect(all.data[1]).toMatchObject({
      id: 2,
      name: 'The Courier Guy',
      countries: ['ZA'],
      configured: false,
      configuration: null,
    })
    expect((await key({ url: '/api/carriers?configured=true' })).json().totalCount).toBe(0)
    const lookups = (await key({ url: '/api/carriers/lookups' })).json().data
    expect(lookups.types).toContain('Postal')
    expect(lookups.countries).toEqual(expect.arrayContaining(['ZA', 'US', 'GB', 'DE', 'AU']))
  })

  it('configures with encrypted credentials that are never returned, one default per business', async () => {
    const { core, key, org } = await deliverySetup(ctx)
    const configured = await post(core, '/api/carriers/configure', {
      carrierId: 2,
      isDefault: true,
      accountReference: 'ACC-1',
      credentials: { apiKey: SECRET },
    })
    expect(configured.statusCode, configured.body).toBe(200)
    expect(configured.body).not.toContain(SECRET)
    expect(configured.json().data.configuration).toMatchObject({
      carrierId: 2,
      isDefault: true,
      enabled: true,
      accountReference: 'ACC-1',
      hasCredentials: true,
    })
    const schema = await schemaOf(ctx, org.businessId)
    const row = await ctx.database.db
      .withSchema(schema)
      .selectFrom('carrier_configurations')
      .select('credentials')
      .executeTakeFirstOrThrow()
    expect(row.credentials?.toString('latin1')).not.toContain(SECRET)
    const plain = decryptCredentials(
      Buffer.from(KEY, 'hex'),
      credentialsContext(org.businessId, 2),
      row.credentials as Buffer,
    )
    expect(plain).toEqual({ apiKey: SECRET })
    expect(() =>
      decryptCredentials(
        Buffer.from(KEY, 'hex'),
        credentialsContext(org.businessId, 3),
        row.credentials as Buffer,
      ),
    ).toThrow()

    await post(key, '/api/carriers/configure', { carrierId: 6, isDefault: true })
    const listed = (await core({ url: '/api/carriers?configured=true' })).json()
    expect(
      listed.data.map((c: { id: number; configuration: { isDefault: boolean } }) => [
        c.id,
        c.configuration.isDefault,
      ]),
    ).toEqual([
      [2, false],
      [6, true],
    ])
    expect(JSON.stringify(listed)).not.toContain(SECRET)
    const patched = await core({
      method: 'PATCH',
      url: '/api/carriers/2',
      payload: { enabled: false, credentials: null },
    })
    expect(patched.json().data.configuration).toMatchObject({
      enabled: false,
      hasCredentials: false,
      accountReference: 'ACC-1',
    })
    expect((await key({ url: '/api/carriers/2' })).json().data.configuration.enabled).toBe(false)
    const configurationId = patched.json().data.configuration.id
    const removed = await core({ method: 'DELETE', url: `/api/carriers/${configurationId}` })
    expect(removed.json().data).toMatchObject({ id: 2, configured: false })
    expect((await core({ method: 'DELETE', url: `/api/carriers/${configurationId}` })).statusCode).toBe(404)
  })

  it('refuses unknown carriers and bad input', async () => {
    const { core } = await deliverySetup(ctx)
    expect(fieldsOf(await post(core, '/api/carriers/configure', { carrierId: 9999 }))).toEqual(['carrierId'])
    expect(
      (await post(core, '/api/carriers/configure', { carrierId: 2, credentials: 'plain text' })).statusCode,
    ).toBe(400)
    expect((await core({ url: '/api/carriers/9999' })).statusCode).toBe(404)
    expect((await core({ url: '/api/carriers/abc' })).statusCode).toBe(400)
    expect(
      (await core({ method: 'PATCH', url: '/api/carriers/3', payload: { enabled: true } })).json().code,
    ).toBe('carrier_not_configured')
    expect((await core({ method: 'DELETE', url: '/api/carriers/7' })).statusCode).toBe(400)
    expect((await core({ url: '/api/carriers?configured=maybe' })).statusCode).toBe(400)
  })

  it('keeps carrier contacts', async () => {
    const { core, key } = await deliverySetup(ctx)
    const added = await post(core, '/api/carriers/contacts', {
      carrierId: 2,
      firstName: 'Thandi',
      email: 'T@Example.com',
      role: 'Account manager',
    })
    expect(added.json().data).toMatchObject({ carrierId: 2, firstName: 'Thandi', email: 't@example.com' })
    const id = added.json().data.id
    expect((await key({ url: '/api/carriers/contacts' })).json().totalCount).toBe(1)
    expect(
      (await put(key, `/api/carriers/contacts/${id}`, { firstName: 'Sipho' })).json().data,
    ).toMatchObject({ firstName: 'Sipho', carrierId: null })
    expect(fieldsOf(await post(core, '/api/carriers/contacts', { firstName: 'x', carrierId: 9999 }))).toEqual(
      ['carrierId'],
    )
    expect(fieldsOf(await post(core, '/api/carriers/contacts', { firstName: 'x', email: 'nope' }))).toContain(
      'email',
    )
    expect((await core({ method: 'DELETE', url: `/api/carriers/contacts/${id}` })).json().data).toBe(true)
    expect((await core({ method: 'DELETE', url: `/api/carriers/contacts/${id}` })).statusCode).toBe(404)
  })

  it('answers 401, 403 per permission and 404 for another organisation', async () => {
    const { core, member, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const theirs = (await post(other.core, '/api/carriers/configure', { carrierId: 4 })).json().data
      .configuration.id
    const contact = (await post(other.core, '/api/carriers/contacts', { firstName: 'A' })).json().data.id
    expect((await ctx.core.inject({ url: '/api/carriers' })).statusCode).toBe(401)
    expect((await member({ url: '/api/carriers' })).statusCode).toBe(200)
    expect((await post(member, '/api/carriers/configure', { carrierId: 2 })).statusCode).toBe(403)
    expect((await scoped({ url: '/api/carriers/lookups' })).statusCode).toBe(403)
    expect((await core({ method: 'DELETE', url: `/api/carriers/${theirs}` })).statusCode).toBe(404)
    expect((await core({ url: '/api/carriers/4' })).json().data.configured).toBe(false)
    expect((await put(core, `/api/carriers/contacts/${contact}`, { firstName: 'B' })).statusCode).toBe(404)
    expect((await core({ method: 'DELETE', url: `/api/carriers/contacts/${randomUUID()}` })).statusCode).toBe(
      404,
    )
  })
})
