import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { addMember, createApiKey, fieldsOf } from '../../../../test/fixtures.js'
import { type Core, coreAs, ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'

const ctx = useTestContext()
// Tests that leave the organisation's own business as registered share one organisation, and
// another for 404s; those that change it or count its businesses register their own.
const owner = useOwnerSession(ctx)
const stranger = useOwnerSession(ctx)

const put = (core: Core, businessId: string, payload: Record<string, unknown>) =>
  core({ method: 'PUT', url: `/api/business/${businessId}`, payload })

const create = async (core: Core, payload: Record<string, unknown>) => {
  const response = await core({ method: 'POST', url: '/api/business', payload })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as {
    id: string
    parentBusinessId: string | null
    currency: string
    timezone: string
  }
}

const UPDATE = {
  registeredName: 'Acme Logistics (Pty) Ltd',
  displayName: 'Acme',
  currency: 'zar',
  timezone: 'africa/johannesburg',
  registrationNumber: ' 2020/123456/07 ',
  email: 'hello@acme.test',
  phoneNumber: '+27 21 000 0000',
  website: 'https://acme.test',
  address: { street: ' 5 Long Street ', city: 'Cape Town', country: 'ZA', latitude: -33.9, longitude: 18.4 },
  requiresDispatchBuilder: true,
  multipleBranches: true,
}

describe('GET /api/business/my-business', () => {
  it('returns the business the request acts in, as registered', async () => {
    const { org, core } = owner
    const response = await core({ url: '/api/business/my-business' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ statusCode: 'OK', messages: [] })
    const data = response.json().data
    expect(data).toMatchObject({
      id: org.businessId,
      displayName: 'Test Org',
      registrationNumber: '2026/000001/07',
      email: 'ops@example.com',
      currency: 'USD',
      timezone: 'UTC',
      parentBusinessId: null,
      requiresDispatchBuilder: true,
      requiresOrderIntegration: false,
      multipleBranches: false,
      address: {
        fullAddress: '1 Main Road, Cape Town',
        city: 'Cape Town',
        country: 'ZA',
        street: null,
        latitude: -33.92,
      },
    })
    expect(Object.keys(data.address).sort()).toEqual([
      'city',
      'country',
      'fullAddress',
      'latitude',
      'longitude',
      'number',
      'postcode',
      'province',
      'street',
      'suburb',
      'unit',
    ])
    expect(new Date(data.dateCreated).getTime()).toBeLessThanOrEqual(Date.now())
  })

  it('needs a credential', async () => {
    expect((await ctx.core.inject({ url: '/api/business/my-business' })).statusCode).toBe(401)
  })
})

describe('PUT /api/business/{businessId}', () => {
  it('replaces the editable fields, normalising currency, time zone and text', async () => {
    const { org, core } = await ownerSession(ctx)
    const response = await put(core, org.businessId, UPDATE)
    expect(response.statusCode, response.body).toBe(200)
    const data = response.json().data
    expect(data).toMatchObject({
      id: org.businessId,
      registeredName: 'Acme Logistics (Pty) Ltd',
      displayName: 'Acme',
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
      registrationNumber: '2020/123456/07',
      website: 'https://acme.test',
      requiresDispatchBuilder: true,
      multipleBranches: true,
      requiresOrderFulfillment: false,
      address: { street: '5 Long Street', city: 'Cape Town', fullAddress: null, latitude: -33.9 },
    })
    expect(new Date(data.dateModified).getTime()).toBeGreaterThanOrEqual(new Date(data.dateCreated).getTime())
    expect((await core({ url: '/api/business/my-business' })).json().data).toEqual(data)

    // Replace: what is left out is cleared.
    const minimal = await put(core, org.businessId, {
      registeredName: 'Acme',
      displayName: 'Acme',
      currency: 'EUR',
      timezone: 'UTC',
    })
    expect(minimal.statusCode).toBe(200)
    expect(minimal.json().data).toMatchObject({
      email: null,
      phoneNumber: null,
      website: null,
      registrationNumber: null,
      address: null,
      requiresDispatchBuilder: false,
      multipleBranches: false,
      currency: 'EUR',
    })
  })

  it('accepts explicit nulls for optional fields and an IANA link name', async () => {
    const { org, core } = await ownerSession(ctx)
    const response = await put(core, org.businessId, {
      ...UPDATE,
      email: null,
      website: null,
      address: null,
      parentBusinessId: null,
      timezone: 'Etc/UTC',
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toMatchObject({ email: null, website: null, address: null, timezone: 'UTC' })
  })

  it('names every invalid field', async () => {
    const { org, core } = owner
    const schema = await put(core, org.businessId, {
      registeredName: 'x'.repeat(101),
      displayName: '',
      currency: 'DOLLARS',
      email: 'not-an-email',
      registrationNumber: 'x'.repeat(31),
      website: 'x'.repeat(101),
      phoneNumber: '1'.repeat(31),
      parentBusinessId: 'nope',
    })
    expect(schema.statusCode).toBe(400)
    expect(schema.json().code).toBe('validation_failed')
    expect(fieldsOf(schema).sort()).toEqual([
      'currency',
      'displayName',
      'email',
      'parentBusinessId',
      'phoneNumber',
      'registeredName',
      'registrationNumber',
      'website',
    ])

    const rules = await put(core, org.businessId, {
      ...UPDATE,
      registeredName: '   ',
      currency: 'XYZ',
      timezone: 'EST',
    })
    expect(rules.statusCode).toBe(400)
    expect(fieldsOf(rules).sort()).toEqual(['currency', 'registeredName', 'timezone'])
    const bogusZone = await put(core, org.businessId, { ...UPDATE, timezone: 'Mars/Olympus_Mons' })
    expect(fieldsOf(bogusZone).sort()).toEqual(['timezone'])
    // Nothing was changed by the failed requests.
    expect((await core({ url: '/api/business/my-business' })).json().data.currency).toBe('USD')
  })

  it('answers 404 for another organisation’s business or an unknown id, 400 for a malformed id', async () => {
    const { core } = owner
    const other = stranger
    const foreign = await put(core, other.org.businessId, UPDATE)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('business_not_found')
    expect((await put(core, randomUUID(), UPDATE)).statusCode).toBe(404)
    const malformed = await put(core, 'not-a-uuid', UPDATE)
    expect(malformed.statusCode).toBe(400)
    expect(fieldsOf(malformed).sort()).toEqual(['businessId'])
    // The other organisation's business is untouched.
    expect((await other.core({ url: '/api/business/my-business' })).json().data.currency).toBe('USD')
  })

  it('is refused to a Member (view only), who can still read', async () => {
    const { org } = owner
    const member = await addMember(ctx, org.businessId, { role: 'Member' })
    const response = await put(member.core, org.businessId, UPDATE)
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('permission_denied')
    expect(
      (await member.core({ method: 'POST', url: '/api/business', payload: { registeredName: 'X' } }))
        .statusCode,
    ).toBe(403)
    expect((await member.core({ url: '/api/business/my-business' })).statusCode).toBe(200)
    expect((await member.core({ url: `/api/business/${org.businessId}/children` })).statusCode).toBe(200)
  })
})

describe('business hierarchy', () => {
  it('creates a business under a parent: it is a child, usable as X-Business-Id, and listed in GET /api/me', async () => {
    const { org, core, signedIn } = await ownerSession(ctx)
    await put(core, org.businessId, { ...UPDATE, currency: 'ZAR', timezone: 'Africa/Johannesburg' })
    const branch = await create(core, {
      registeredName: 'Acme Branch North',
      parentBusinessId: org.businessId.toUpperCase(),
      address: { city: 'Durban' },
    })
    // Currency and time zone default to the current business's.
    expect(branch).toMatchObject({
      parentBusinessId: org.businessId,
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
      displayName: 'Acme Branch North',
      email: null,
      address: { city: 'Durban' },
    })
    const other = await create(core, {
      registeredName: 'Acme Standalone',
      currency: 'jpy',
      timezone: 'Asia/Tokyo',
    })
    expect(other).toMatchObject({ parentBusinessId: null, currency: 'JPY', timezone: 'Asia/Tokyo' })

    const children = await core({ url: `/api/business/${org.businessId}/children` })
    expect(children.statusCode).toBe(200)
    expect(children.json()).toMatchObject({
      count: 1,
      totalCount: 1,
      page: 1,
      finalPage: 1,
      hasMore: false,
      statusCode: 'OK',
    })
    expect(children.json().data[0]).toMatchObject({ id: branch.id, registeredName: 'Acme Branch North' })

    const me = await core({ url: '/api/me' })
    expect(me.json().data.businesses).toEqual(
      expect.arrayContaining([
        { id: branch.id, displayName: 'Acme Branch North', parentBusinessId: org.businessId },
        { id: other.id, displayName: 'Acme Standalone', parentBusinessId: null },
      ]),
    )
    const index = await ctx.database.db
      .selectFrom('global.businesses')
      .select(['parent_business_id', 'organization_id'])
      .where('id', '=', branch.id)
      .executeTakeFirstOrThrow()
    expect(index.parent_business_id).toBe(org.businessId)

    const asBranch = coreAs(ctx, { accessToken: signedIn.accessToken, businessId: branch.id })
    const mine = await asBranch({ url: '/api/business/my-business' })
    expect(mine.statusCode).toBe(200)
    expect(mine.json().data.id).toBe(branch.id)
  })

  it('rejects a parent from another organisation, an unknown parent, itself and a cycle', async () => {
    const { org, core } = owner
    const other = stranger
    for (const parentBusinessId of [other.org.businessId, randomUUID()]) {
      const response = await core({
        method: 'POST',
        url: '/api/business',
        payload: { registeredName: 'B', parentBusinessId },
      })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response).sort()).toEqual(['parentBusinessId'])
    }
    const root = org.businessId
    const b = await create(core, { registeredName: 'B', parentBusinessId: root })
    const c = await create(core, { registeredName: 'C', parentBusinessId: b.id })
    const base = { registeredName: 'Root', displayName: 'Root', currency: 'USD', timezone: 'UTC' }

    for (const parentBusinessId of [root, b.id, c.id, other.org.businessId]) {
      const response = await put(core, root, { ...base, parentBusinessId })
      expect(response.statusCode, parentBusinessId).toBe(400)
      expect(fieldsOf(response).sort()).toEqual(['parentBusinessId'])
    }
    // Moving C directly under the root is fine; then B may go under C.
    expect((await put(core, c.id, { ...base, registeredName: 'C', parentBusinessId: root })).statusCode).toBe(
      200,
    )
    const moved = await put(core, b.id, { ...base, registeredName: 'B', parentBusinessId: c.id })
    expect(moved.statusCode).toBe(200)
    expect(moved.json().data.parentBusinessId).toBe(c.id)
    // Leaving parentBusinessId out of a PUT detaches the business (replace semantics), in the index too.
    expect((await put(core, b.id, { ...base, registeredName: 'B' })).json().data.parentBusinessId).toBeNull()
    const index = await ctx.database.db
      .selectFrom('global.businesses')
      .select('parent_business_id')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow()
    expect(index.parent_business_id).toBeNull()
  })

  it('lets only one of two concurrent opposite re-parentings through', async () => {
    const { core } = owner
    const a = await create(core, { registeredName: 'A' })
    const b = await create(core, { registeredName: 'B' })
    const base = { displayName: 'X', currency: 'USD', timezone: 'UTC' }
    const results = await Promise.all([
      put(core, a.id, { ...base, registeredName: 'A', parentBusinessId: b.id }),
      put(core, b.id, { ...base, registeredName: 'B', parentBusinessId: a.id }),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400])
  })

  it('validates a new business', async () => {
    const { core } = owner
    const response = await core({
      method: 'POST',
      url: '/api/business',
      payload: { registeredName: '', currency: 'ZZZ', email: 'x' },
    })
    expect(response.statusCode).toBe(400)
    expect(fieldsOf(response).sort()).toEqual(['email', 'registeredName'])
    const rules = await core({
      method: 'POST',
      url: '/api/business',
      payload: { registeredName: 'X', currency: 'ZZZ', timezone: 'Nowhere' },
    })
    expect(fieldsOf(rules).sort()).toEqual(['currency', 'timezone'])
    expect((await core({ method: 'POST', url: '/api/business', payload: {} })).statusCode).toBe(400)
  })
})

describe('GET /api/business/{businessId}/children', () => {
  it('pages, sorts, filters and searches the direct children only', async () => {
    const { org, core } = await ownerSession(ctx)
    const names = ['Delta', 'Alpha', 'Charlie', 'Bravo']
    const made: { id: string }[] = []
    for (const name of names)
      made.push(await create(core, { registeredName: name, parentBusinessId: org.businessId }))
    const first = made[0]
    if (!first) throw new Error('no child')
    await create(core, { registeredName: 'Grandchild', parentBusinessId: first.id })

    const page = await core({
      url: `/api/business/${org.businessId}/children?PageSize=3&$orderby=displayName desc`,
    })
    expect(page.json()).toMatchObject({ count: 3, totalCount: 4, finalPage: 2, hasMore: true, pageSize: 3 })
    expect(page.json().data.map((b: { displayName: string }) => b.displayName)).toEqual([
      'Delta',
      'Charlie',
      'Bravo',
    ])
    const second = await core({
      url: `/api/business/${org.businessId}/children?PageSize=3&Page=2&$orderby=displayName desc`,
    })
    expect(second.json().data.map((b: { displayName: string }) => b.displayName)).toEqual(['Alpha'])

    const filtered = await core({
      url: `/api/business/${org.businessId}/children?$filter=startswith(registeredName,'Ch')`,
    })
    expect(filtered.json().data.map((b: { displayName: string }) => b.displayName)).toEqual(['Charlie'])
    const searched = await core({ url: `/api/business/${org.businessId}/children?$search=RAV` })
    expect(searched.json().totalCount).toBe(1)
    // Default order: oldest first.
    const all = await core({ url: `/api/business/${org.businessId}/children` })
    expect(all.json().data.map((b: { displayName: string }) => b.displayName)).toEqual(names)
    const grandchildren = await core({ url: `/api/business/${first.id}/children` })
    expect(grandchildren.json().data.map((b: { displayName: string }) => b.displayName)).toEqual([
      'Grandchild',
    ])

    const bad = await core({
      url: `/api/business/${org.businessId}/children?$filter=email eq 'x'&PageSize=0`,
    })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad).sort()).toContain('PageSize')
    const badFilter = await core({ url: `/api/business/${org.businessId}/children?$filter=email eq 'x'` })
    expect(fieldsOf(badFilter).sort()).toEqual(['$filter'])
  })

  it('answers 404 for another organisation’s business', async () => {
    const { core } = owner
    const other = stranger
    await create(other.core, { registeredName: 'Hidden', parentBusinessId: other.org.businessId })
    expect((await core({ url: `/api/business/${other.org.businessId}/children` })).statusCode).toBe(404)
    expect((await core({ url: `/api/business/${randomUUID()}/children` })).statusCode).toBe(404)
  })
})

describe('API key credential', () => {
  it('reads and creates businesses with an API key', async () => {
    const { org, signedIn } = await ownerSession(ctx)
    const key = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${signedIn.accessToken}` },
      payload: { businessId: org.businessId, label: 'business test' },
    })
    expect(key.statusCode, key.body).toBe(200)
    const core = coreAs(ctx, { apiKey: key.json().data.token })
    const mine = await core({ url: '/api/business/my-business' })
    expect(mine.statusCode).toBe(200)
    expect(mine.json().data.id).toBe(org.businessId)
    const branch = await create(core, { registeredName: 'Via key', parentBusinessId: org.businessId })
    expect(branch.parentBusinessId).toBe(org.businessId)

    const viewOnly = await createApiKey(ctx, signedIn.accessToken, org.businessId, {
      scopes: '{"Settings": 1}',
    })
    const limited = coreAs(ctx, { apiKey: viewOnly })
    expect((await limited({ url: '/api/business/my-business' })).statusCode).toBe(200)
    expect((await put(limited, org.businessId, UPDATE)).statusCode).toBe(403)
  })
})
