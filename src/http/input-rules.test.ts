import { beforeAll, describe, expect, it } from 'vitest'
import { createApiKey, fieldsOf } from '../../test/fixtures.js'
import {
  type Core,
  coreAs,
  globalAs,
  ownerSession,
  registrationBody,
  signIn,
  useTestContext,
} from '../../test/harness.js'
import { CUSTOMERS, createCustomer } from '../modules/customers/customers/customers.fixtures.js'
import { normaliseDateTime } from './odata/literals.js'

/** The kernel's input rules, exercised on real routes of both APIs with both credential kinds. */
const ctx = useTestContext()
let owner: Awaited<ReturnType<typeof ownerSession>>
let viaKey: Core

beforeAll(async () => {
  owner = await ownerSession(ctx)
  const apiKey = await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId)
  viaKey = coreAs(ctx, { apiKey })
})

const callers = () =>
  [
    ['bearer', owner.core],
    ['API key', viaKey],
  ] as const

describe('JSON bodies are taken as sent (no coercion)', () => {
  it.each([
    ['a number where a string is declared', { name: 5 }, 'name'],
    ['a boolean where a string is declared', { name: true }, 'name'],
    ['an object where a string is declared', { name: { a: 1 } }, 'name'],
    ['a string where an array is declared', { name: 'n', contacts: 'x' }, 'contacts'],
    [
      'a string where a boolean is declared',
      { name: 'n', contacts: [{ firstName: 'c', isPrimary: 'true' }] },
      'contacts.0.isPrimary',
    ],
  ])('refuses %s with a 400 naming the field', async (_label, payload, field) => {
    for (const [, core] of callers()) {
      const response = await core({ method: 'POST', url: CUSTOMERS, payload })
      expect(response.statusCode, response.body).toBe(400)
      expect(fieldsOf(response)).toContain(field)
    }
  })

  it.each([
    ['null', null],
    ['a string', '12'],
    ['a boolean', true],
  ])('refuses %s as an order line unitPrice instead of storing a number', async (_label, unitPrice) => {
    const customer = await createCustomer(owner.core)
    const response = await owner.core({
      method: 'POST',
      url: '/api/v1/orders',
      payload: { customerId: customer.id, lines: [{ description: 'Widget', quantity: 1, unitPrice }] },
    })
    expect(response.statusCode, response.body).toBe(400)
    expect(fieldsOf(response)).toEqual(['lines.0.unitPrice'])
  })

  it('still accepts an enum by number in a body', async () => {
    const customer = await createCustomer(owner.core, { type: 1 })
    expect(customer.type).toBe('Company')
  })
})

describe('text PostgreSQL cannot store is a 400 naming the field, never a 500', () => {
  it.each([
    ['U+0000', '\u0000'],
    ['U+0000 inside text', 'Acme\u0000Ltd'],
    ['a lone high surrogate', 'Acme\ud800'],
    ['a lone low surrogate', '\udc00Acme'],
  ])('in a Core body: %s', async (_label, name) => {
    for (const [, core] of callers()) {
      const response = await core({
        method: 'POST',
        url: CUSTOMERS,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name }),
      })
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_failed', reasons: [{ field: 'name' }] })
    }
  })

  it('in nested values and free-form keys', async () => {
    const nested = await owner.core({
      method: 'POST',
      url: CUSTOMERS,
      payload: { name: 'n', contacts: [{ firstName: 'a\u0000' }] },
    })
    expect(fieldsOf(nested)).toEqual(['contacts.0.firstName'])
    const key = await owner.core({
      method: 'POST',
      url: CUSTOMERS,
      payload: { name: 'n', metadata: { 'k\u0000': 'v' } },
    })
    expect(key.statusCode).toBe(400)
    expect(fieldsOf(key)).toEqual(['metadata.k\\u0000'])
  })

  it('in a query string, unauthenticated and authenticated', async () => {
    const softCheck = await ctx.global.inject({ url: '/api/organizations/soft-check?emailAddress=%00' })
    expect(softCheck.statusCode).toBe(400)
    expect(softCheck.headers['content-type']).toContain('application/problem+json')
    expect(fieldsOf(softCheck)).toEqual(['emailAddress'])
    for (const [, core] of callers()) {
      const search = await core({ url: `${CUSTOMERS}?$search=%00` })
      expect(search.statusCode).toBe(400)
      expect(fieldsOf(search)).toEqual(['$search'])
      const inFilter = await core({ url: `${CUSTOMERS}?$filter=${encodeURIComponent("name eq 'a\u0000'")}` })
      expect(inFilter.statusCode).toBe(400)
      expect(fieldsOf(inFilter)).toEqual(['$filter'])
    }
  })

  it('in a path parameter', async () => {
    const response = await owner.core({ url: `${CUSTOMERS}/%00` })
    expect(response.statusCode).toBe(400)
    expect(fieldsOf(response)).toEqual(['customerId'])
  })

  it('in a Global body', async () => {
    const body = registrationBody()
    body.business.displayName = 'x\u0000'
    const response = await ctx.global.inject({ method: 'POST', url: '/api/organizations', payload: body })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ status: 400, errors: [{ field: 'business.displayName' }] })
  })
})

describe('empty bodies', () => {
  it('are accepted on an operation without a body, whatever Content-Type says', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/xml',
    ]) {
      const session = await signIn(ctx, owner.org)
      const response = await globalAs(ctx, { bearer: session.accessToken })({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { 'content-type': type },
      })
      expect(response.statusCode, `${type}: ${response.body}`).toBe(200)
    }
  })

  it('are a 400 naming the body where the operation takes one', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, {}]) {
      const response = await owner.core({ method: 'POST', url: CUSTOMERS, headers })
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json().reasons).toEqual([{ field: 'body', message: 'is required' }])
    }
  })

  it('are read as {} by an action whose body has only optional fields', async () => {
    // Drafting purchase orders from the reorder suggestions takes an optional supplierId.
    for (const headers of [{ 'content-type': 'application/json' }, {}]) {
      const response = await owner.core({
        method: 'POST',
        url: '/api/v1/purchase-orders/from-reorder-suggestions',
        headers,
      })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json().data).toEqual({ purchaseOrders: [] })
    }
  })

  it('with content on a bodiless operation keep the media type rules', async () => {
    const session = await signIn(ctx, owner.org)
    for (const [type, payload] of [
      ['application/xml', '<a/>'],
      ['text/plain', 'x'],
    ]) {
      const response = await globalAs(ctx, { bearer: session.accessToken })({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { 'content-type': type as string },
        payload,
      })
      expect(response.statusCode, type).toBe(415)
      expect(response.json()).toMatchObject({ status: 415, code: 'unsupported_media_type' })
    }
  })
})

describe('names match regardless of letter case', () => {
  it('in query strings: standard list parameters and others', async () => {
    await createCustomer(owner.core, { name: 'Case A' })
    await createCustomer(owner.core, { name: 'Case B' })
    for (const [, core] of callers()) {
      const body = (await core({ url: `${CUSTOMERS}?page=2&pagesize=1&$ORDERBY=name desc` })).json()
      expect(body).toMatchObject({ page: 2, pageSize: 1 })
      expect(body.totalCount).toBeGreaterThan(1)
    }
    const softCheck = await ctx.global.inject({
      url: '/api/organizations/soft-check?EMAILADDRESS=nobody%40example.com',
    })
    expect(softCheck.statusCode).toBe(200)
    // A name no spelling of which the operation takes is a 400 naming it, not ignored.
    const unknown = await owner.core({ url: `${CUSTOMERS}?whatever=1&PAGE=1` })
    expect(unknown.statusCode).toBe(400)
    expect(fieldsOf(unknown)).toEqual(['whatever'])
  })

  it('refuses a query parameter the operation does not take, on both APIs, but not on the e-mailed link', async () => {
    const global = await ctx.global.inject({
      url: '/api/organizations/soft-check?emailAddress=nobody%40example.com&sendMail=true',
    })
    expect(global.statusCode).toBe(400)
    expect(global.json()).toMatchObject({ status: 400, errors: [{ field: 'sendMail' }] })
    const none = await owner.core({ url: '/api/me?verbose=true' })
    expect(none.json().reasons).toEqual([
      {
        field: 'verbose',
        message: 'is not a query parameter of this operation; this operation takes no query parameters',
      },
    ])
    // Mail services append tracking parameters to links: the verification link takes them.
    const link = await ctx.global.inject({ url: '/api/auth/verify-by-token?token=nope&utm_source=mail' })
    expect(link.statusCode).toBe(400)
    expect(fieldsOf(link)).toEqual(['token'])
    // Framework routes are not operations: the documents load with any query.
    expect((await ctx.core.inject({ url: '/openapi.json?v=2' })).statusCode).toBe(200)
  })

  it('refuses a query parameter given twice in different cases', async () => {
    const response = await owner.core({ url: `${CUSTOMERS}?page=1&Page=2` })
    expect(response.statusCode).toBe(400)
    expect(fieldsOf(response)).toEqual(['Page'])
  })

  it('in bodies, recursively, keeping free-form keys as sent', async () => {
    for (const [, core] of callers()) {
      const response = await core({
        method: 'POST',
        url: CUSTOMERS,
        payload: {
          Name: 'Pascal Co',
          TYPE: 'company',
          Metadata: { ErpId: 'C-1', erpid: 'c-2' },
          Contacts: [{ FIRSTNAME: 'Grace', lastname: 'Hopper', IsPrimary: true }],
        },
      })
      expect(response.statusCode, response.body).toBe(200)
      const data = response.json().data
      expect(data).toMatchObject({
        name: 'Pascal Co',
        type: 'Company',
        metadata: { ErpId: 'C-1', erpid: 'c-2' },
      })
      expect(data.contacts).toMatchObject([{ firstName: 'Grace', lastName: 'Hopper', isPrimary: true }])
    }
  })

  it('refuses two body keys that differ only in case, naming the field', async () => {
    const response = await owner.core({
      method: 'POST',
      url: CUSTOMERS,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","Name":"b"}',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().reasons).toEqual([
      {
        field: 'name',
        message: 'is given more than once, as name and Name (names match regardless of letter case)',
      },
    ])
  })

  it('in Global bodies', async () => {
    const response = await ctx.global.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { Email: owner.org.email, PASSWORD: owner.org.password },
    })
    expect(response.statusCode, response.body).toBe(200)
  })
})

describe('date-times without an offset are UTC', () => {
  it.each([
    ['2026-01-31T09:15:00', '2026-01-31T09:15:00.000Z'],
    ['2026-01-31T09:15:00.1234567', '2026-01-31T09:15:00.123Z'],
    ['2026-01-31T09:15:00.1234567+02:00', '2026-01-31T07:15:00.123Z'],
    ['2026-01-31T09:15:00Z', '2026-01-31T09:15:00.000Z'],
  ])('reads orderDate %s as %s', async (orderDate, expected) => {
    const customer = await createCustomer(owner.core)
    const response = await viaKey({
      method: 'POST',
      url: '/api/v1/orders',
      payload: {
        customerId: customer.id,
        orderDate,
        lines: [{ description: 'W', quantity: 1, unitPrice: 1 }],
      },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(new Date(response.json().data.orderDate).toISOString()).toBe(expected)
  })

  it('in $filter literals too', async () => {
    expect(normaliseDateTime('2026-01-31T09:15:00')).toBe('2026-01-31T09:15:00Z')
    const response = await owner.core({ url: `${CUSTOMERS}?$filter=dateCreated ge 2026-01-31T09:15:00` })
    expect(response.statusCode, response.body).toBe(200)
  })
})

describe('integers in query strings are decimal digits only', () => {
  it.each(['0x10', '1e1', '%205', '%2B5', '5.0', '', '1_0'])('refuses Page=%s naming Page', async (value) => {
    const response = await owner.core({ url: `${CUSTOMERS}?Page=${value}` })
    expect(response.statusCode, response.body).toBe(400)
    expect(fieldsOf(response)).toEqual(['Page'])
  })

  it('accepts plain digits', async () => {
    expect((await owner.core({ url: `${CUSTOMERS}?Page=16&PageSize=05` })).json()).toMatchObject({
      page: 16,
      pageSize: 5,
    })
  })
})
