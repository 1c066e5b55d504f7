import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  businessSession,
  createApiKey,
  fieldsOf,
  insertCustomer,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import { createOrder, deleteCustomer, line, orderWithStatus, tracesOf } from './orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

/** An owner with one customer (Acme Traders). */
async function setup(organisation = 'first') {
  const owner = await businessSession(ctx, await sharedOrganisation(ctx, organisation))
  const customerId = await insertCustomer(ctx, owner.org.businessId, { name: 'Acme Traders' })
  return { ...owner, customerId }
}

describe('POST /api/v1/orders', () => {
  it('creates a Draft order whose total the server computes from the lines, in decimals', async () => {
    const { core, org, customerId } = await setup()
    const before = Date.now()
    const response = await core({
      method: 'POST',
      url: '/api/v1/orders',
      payload: {
        customerId,
        lines: [
          { productId: randomUUID(), description: ' Blue widget ', quantity: 3, unitPrice: 19.99 },
          { description: 'Bolts', quantity: 0.5, unitPrice: 10.1 },
        ],
        deliveryAddress: { fullAddress: ' 1 Dock Road ', city: 'Cape Town', latitude: -33.9 },
        notes: 'Leave at the gate',
        total: 1,
      },
    })
    expect(response.statusCode).toBe(200)
    const order = response.json().data
    expect(response.json().statusCode).toBe('OK')
    expect(order).toMatchObject({
      businessId: org.businessId,
      code: 'ORD-000001',
      customerId,
      customer: { id: customerId, name: 'Acme Traders' },
      status: 'Draft',
      currency: 'USD',
      notes: 'Leave at the gate',
      total: 65.02,
      confirmedAt: null,
      fulfilledAt: null,
      cancelledAt: null,
    })
    expect(order.lines).toEqual([
      {
        id: expect.any(String),
        lineNumber: 1,
        productId: expect.any(String),
        description: 'Blue widget',
        quantity: 3,
        unitPrice: 19.99,
        lineTotal: 59.97,
      },
      {
        id: expect.any(String),
        lineNumber: 2,
        productId: null,
        description: 'Bolts',
        quantity: 0.5,
        unitPrice: 10.1,
        lineTotal: 5.05,
      },
    ])
    expect(order.deliveryAddress).toMatchObject({
      fullAddress: '1 Dock Road',
      city: 'Cape Town',
      street: null,
      latitude: -33.9,
    })
    expect(Date.parse(order.orderDate)).toBeGreaterThanOrEqual(before - 1000)
    expect(order.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)

    const second = await createOrder(core, { customerId, lines: [line(1, 1)] })
    expect(second.code).toBe('ORD-000002')
    const traces = await tracesOf(ctx, org.businessId, customerId)
    expect(traces).toContainEqual(
      expect.objectContaining({
        type: 'OrderCreated',
        order_id: order.id,
        source: 'System',
        created_by_user_id: org.userId,
      }),
    )
    expect(traces.filter((t) => t.type === 'OrderCreated')).toHaveLength(2)
  })

  it('keeps 4 decimal places exactly and takes the currency and order date given', async () => {
    const { core, customerId } = await setup()
    const order = await createOrder(core, {
      customerId,
      orderDate: '2026-01-31T09:15:00Z',
      currency: 'eur',
      lines: [line(1.2345, 0.0001), line(0.1, 0.2), line(7, 1234.5678)],
    })
    expect(order).toMatchObject({ currency: 'EUR', orderDate: '2026-01-31T09:15:00.000Z' })
    // 0.00012345 rounds to 0.0001; 0.02; 8641.9746
    expect(order.total).toBe(8641.9947)
  })

  it('answers 400 naming each invalid field', async () => {
    const { core, customerId } = await setup()
    const post = (payload: Record<string, unknown>) =>
      core({ method: 'POST', url: '/api/v1/orders', payload })
    const cases: [Record<string, unknown>, string[]][] = [
      [{ lines: [line(1, 1)] }, ['customerId']],
      [{ customerId: 'nope', lines: [line(1, 1)] }, ['customerId']],
      [{ customerId }, ['lines']],
      [{ customerId, lines: [] }, ['lines']],
      [{ customerId, lines: Array.from({ length: 501 }, () => line(1, 1)) }, ['lines']],
      [{ customerId, lines: [line(0, 1)] }, ['lines.0.quantity']],
      [{ customerId, lines: [line(1, 1), line(-2, 1)] }, ['lines.1.quantity']],
      [{ customerId, lines: [line(1.23456, 1)] }, ['lines.0.quantity']],
      [{ customerId, lines: [line(1, -0.01)] }, ['lines.0.unitPrice']],
      [{ customerId, lines: [line(1, 0.00001)] }, ['lines.0.unitPrice']],
      [{ customerId, lines: [{ quantity: 1, unitPrice: 1 }] }, ['lines.0']],
      [{ customerId, lines: [line(1, 1), { description: '  ', quantity: 1, unitPrice: 1 }] }, ['lines.1']],
      [{ customerId, lines: [{ productId: 'x', quantity: 1, unitPrice: 1 }] }, ['lines.0.productId']],
      [{ customerId, lines: [line(1, 1, 'd'.repeat(501))] }, ['lines.0.description']],
      [{ customerId, lines: [line(1, 1)], notes: 'n'.repeat(2001) }, ['notes']],
      [{ customerId, lines: [line(1, 1)], currency: 'XYZ' }, ['currency']],
      [{ customerId, lines: [line(1, 1)], orderDate: 'yesterday' }, ['orderDate']],
      [{ customerId, lines: [line(1_000_000_000, 1_000_000_000)] }, ['lines.0']],
      [{ customerId, lines: Array.from({ length: 2 }, () => line(10_000_000, 5_000_000)) }, ['lines']],
      [
        { customerId, currency: 'x', lines: [line(0, 1), { quantity: 1.5, unitPrice: 2 }] },
        ['currency', 'lines.0.quantity'],
      ],
      [
        { customerId, currency: 'ABC', lines: [line(1.00001, 1), { quantity: 1.5, unitPrice: 2 }] },
        ['currency', 'lines.0.quantity', 'lines.1'],
      ],
    ]
    for (const [payload, fields] of cases) {
      const response = await post(payload)
      const label = JSON.stringify(payload).slice(0, 120)
      expect(response.statusCode, label).toBe(400)
      expect(response.json().code, label).toBe('validation_failed')
      expect(fieldsOf(response).sort(), label).toEqual([...fields].sort())
    }
    // A nullable object reports the union too ('deliveryAddress'); the inner field is named as well.
    const address = await post({ customerId, lines: [line(1, 1)], deliveryAddress: { latitude: 91 } })
    expect(address.statusCode).toBe(400)
    expect(fieldsOf(address)).toContain('deliveryAddress.latitude')
  })

  it("refuses another organisation's, an unknown and a deleted customer (400 naming customerId)", async () => {
    const { core, org } = await setup()
    const other = await setup('another')
    const deleted = await insertCustomer(ctx, org.businessId, { deleted: true })
    for (const customerId of [other.customerId, randomUUID(), deleted]) {
      const response = await core({
        method: 'POST',
        url: '/api/v1/orders',
        payload: { customerId, lines: [line(1, 1)] },
      })
      expect(response.statusCode).toBe(400)
      expect(fieldsOf(response)).toEqual(['customerId'])
    }
    const list = await other.core({ url: '/api/v1/orders' })
    expect(list.json().totalCount).toBe(0)
  })
})

describe('GET /api/v1/orders/{orderId}', () => {
  it("returns the order with its lines; another organisation's or an unknown id is a 404", async () => {
    const { core, customerId } = await setup()
    const created = await createOrder(core, { customerId, lines: [line(2, 2.5), line(1, 1)] })
    const response = await core({ url: `/api/v1/orders/${created.id}` })
    expect(response.statusCode).toBe(200)
    expect(response.json().data).toMatchObject({
      id: created.id,
      total: 6,
      lines: [{ lineNumber: 1 }, { lineNumber: 2 }],
    })
    // Paths match regardless of letter case.
    expect((await core({ url: `/API/V1/Orders/${created.id}` })).statusCode).toBe(200)

    const other = await sharedOrganisation(ctx, 'another')
    for (const url of [`/api/v1/orders/${created.id}`, `/api/v1/orders/${randomUUID()}`]) {
      const refused = await other.core({ url })
      expect(refused.statusCode).toBe(404)
      expect(refused.json().code).toBe('order_not_found')
    }
    const malformed = await core({ url: '/api/v1/orders/not-a-uuid' })
    expect(malformed.statusCode).toBe(400)
    expect(fieldsOf(malformed)).toEqual(['orderId'])
  })

  it('still shows a deleted customer on its existing orders, which keep working', async () => {
    const { core, org, customerId } = await setup()
    const order = await createOrder(core, { customerId, lines: [line(1, 10)] })
    await deleteCustomer(ctx, org.businessId, customerId)
    const response = await core({ url: `/api/v1/orders/${order.id}` })
    expect(response.json().data.customer).toEqual({ id: customerId, name: 'Acme Traders' })
    const listed = await core({ url: '/api/v1/orders' })
    expect(listed.json().data.map((o: { id: string }) => o.id)).toEqual([order.id])
    const updated = await core({
      method: 'PUT',
      url: `/api/v1/orders/${order.id}`,
      payload: { customerId, lines: [line(2, 10)] },
    })
    expect(updated.statusCode).toBe(200)
    expect(updated.json().data.total).toBe(20)
    expect((await core({ method: 'POST', url: `/api/v1/orders/${order.id}/confirm` })).statusCode).toBe(200)
    const refused = await core({
      method: 'POST',
      url: '/api/v1/orders',
      payload: { customerId, lines: [line(1, 1)] },
    })
    expect(refused.statusCode).toBe(400)
    expect(fieldsOf(refused)).toEqual(['customerId'])
  })
})

describe('PUT /api/v1/orders/{orderId}', () => {
  it('replaces the fields and lines of a Draft order and recomputes the total', async () => {
    const { core, org, customerId } = await setup()
    const created = await createOrder(core, {
      customerId,
      orderDate: '2026-02-01T00:00:00Z',
      currency: 'ZAR',
      notes: 'first',
      deliveryAddress: { city: 'Durban' },
      lines: [line(1, 1), line(2, 2), line(3, 3)],
    })
    const response = await core({
      method: 'PUT',
      url: `/api/v1/orders/${created.id}`,
      payload: {
        customerId,
        lines: [{ productId: randomUUID(), quantity: 3, unitPrice: 19.99 }, line(0.5, 10.1)],
        total: 0,
      },
    })
    expect(response.statusCode).toBe(200)
    const order = response.json().data
    expect(order).toMatchObject({
      code: created.code,
      status: 'Draft',
      total: 65.02,
      // Omitted: orderDate and currency keep their values; notes and address are replaced by null.
      orderDate: '2026-02-01T00:00:00.000Z',
      currency: 'ZAR',
      notes: null,
      deliveryAddress: null,
    })
    expect(
      order.lines.map((l: { lineNumber: number; lineTotal: number }) => [l.lineNumber, l.lineTotal]),
    ).toEqual([
      [1, 59.97],
      [2, 5.05],
    ])
    expect(Date.parse(order.dateModified)).toBeGreaterThanOrEqual(Date.parse(order.dateCreated))
    const fetched = (await core({ url: `/api/v1/orders/${created.id}` })).json().data
    expect(fetched).toEqual(order)
    const traces = await tracesOf(ctx, org.businessId, customerId)
    expect(traces).toContainEqual(expect.objectContaining({ type: 'OrderUpdated', order_id: created.id }))
  })

  it('moves an order to another live customer, noting it on both timelines; a deleted one is a 400', async () => {
    const { core, org, customerId } = await setup()
    const created = await createOrder(core, { customerId, lines: [line(1, 1)] })
    const next = await insertCustomer(ctx, org.businessId, { name: 'Beta Stores' })
    const moved = await core({
      method: 'PUT',
      url: `/api/v1/orders/${created.id}`,
      payload: {
        customerId: next,
        currency: 'GBP',
        orderDate: '2025-12-24T10:00:00Z',
        notes: 'moved',
        lines: [line(1, 5)],
      },
    })
    expect(moved.statusCode).toBe(200)
    expect(moved.json().data).toMatchObject({
      customer: { id: next, name: 'Beta Stores' },
      currency: 'GBP',
      orderDate: '2025-12-24T10:00:00.000Z',
      notes: 'moved',
      total: 5,
    })
    expect((await tracesOf(ctx, org.businessId, next)).map((t) => t.type)).toEqual(['OrderUpdated'])
    expect((await tracesOf(ctx, org.businessId, customerId)).map((t) => t.type).sort()).toEqual([
      'OrderCreated',
      'OrderUpdated',
    ])

    const gone = await insertCustomer(ctx, org.businessId, { deleted: true })
    const other = await setup('another')
    for (const target of [gone, other.customerId]) {
      const refused = await core({
        method: 'PUT',
        url: `/api/v1/orders/${created.id}`,
        payload: { customerId: target, lines: [line(1, 1)] },
      })
      expect(refused.statusCode).toBe(400)
      expect(fieldsOf(refused)).toEqual(['customerId'])
    }
  })

  it('edits a Confirmed order; a Fulfilled or Cancelled one is a 409 order_not_editable', async () => {
    const { core, customerId } = await setup()
    const body = { customerId, lines: [line(1, 1)] }
    const put = (id: string) =>
      core({ method: 'PUT', url: `/api/v1/orders/${id}`, payload: { customerId, lines: [line(4, 4)] } })
    const confirmed = await orderWithStatus(core, body, 'Confirmed')
    const edited = await put(confirmed.id)
    expect(edited.statusCode).toBe(200)
    expect(edited.json().data).toMatchObject({ status: 'Confirmed', total: 16 })
    for (const status of ['Fulfilled', 'Cancelled'] as const) {
      const order = await orderWithStatus(core, body, status)
      const refused = await put(order.id)
      expect(refused.statusCode, status).toBe(409)
      expect(refused.json().code).toBe('order_not_editable')
      expect((await core({ url: `/api/v1/orders/${order.id}` })).json().data.total).toBe(1)
    }
  })

  it("is a 404 for another organisation's order and a 400 for a bad body", async () => {
    const { core, customerId } = await setup()
    const order = await createOrder(core, { customerId, lines: [line(1, 1)] })
    const other = await setup('another')
    const foreign = await other.core({
      method: 'PUT',
      url: `/api/v1/orders/${order.id}`,
      payload: { customerId: other.customerId, lines: [line(9, 9)] },
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('order_not_found')
    const bad = await core({
      method: 'PUT',
      url: `/api/v1/orders/${order.id}`,
      payload: { customerId, lines: [line(1, 0.123456)] },
    })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad)).toEqual(['lines.0.unitPrice'])
    expect((await core({ url: `/api/v1/orders/${order.id}` })).json().data.total).toBe(1)
  })
})

describe('GET /api/v1/orders', () => {
  /** Four orders over two customers in different states, dates and currencies. */
  async function catalogue() {
    const owner = await setup()
    const { core, org, customerId } = owner
    const zeta = await insertCustomer(ctx, org.businessId, { name: 'Zeta Wholesale' })
    const a = await orderWithStatus(
      core,
      { customerId, orderDate: '2026-01-10T00:00:00Z', notes: 'rush job', lines: [line(1, 10)] },
      'Confirmed',
    )
    const b = await createOrder(core, {
      customerId: zeta,
      orderDate: '2026-02-10T00:00:00Z',
      lines: [line(2, 50), line(1, 0.5)],
    })
    const c = await orderWithStatus(
      core,
      { customerId: zeta, orderDate: '2026-03-10T00:00:00Z', currency: 'EUR', lines: [line(3, 100)] },
      'Cancelled',
    )
    const d = await createOrder(core, { customerId, orderDate: '2025-12-10T00:00:00Z', lines: [line(1, 75)] })
    return { ...owner, zeta, a, b, c, d }
  }
  const codes = (response: { json(): { data: { code: string }[] } }) =>
    response.json().data.map((o) => o.code)

  it('lists the business orders newest orderDate first, each with its lines, paged in SQL', async () => {
    const t = await catalogue()
    const other = await setup('another')
    await createOrder(other.core, { customerId: other.customerId, lines: [line(1, 1)] })
    const response = await t.core({ url: '/api/v1/orders' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      totalCount: 4,
      count: 4,
      page: 1,
      finalPage: 1,
      hasMore: false,
      statusCode: 'OK',
    })
    expect(codes(response)).toEqual([t.c.code, t.b.code, t.a.code, t.d.code])
    const b = response.json().data[1]
    expect(b).toMatchObject({
      customer: { id: t.zeta, name: 'Zeta Wholesale' },
      total: 100.5,
      status: 'Draft',
    })
    expect(b.lines.map((l: { lineTotal: number }) => l.lineTotal)).toEqual([100, 0.5])
    const page2 = await t.core({ url: '/api/v1/orders?PageSize=3&Page=2' })
    expect(page2.json()).toMatchObject({ count: 1, totalCount: 4, finalPage: 2, hasMore: false })
    expect(codes(page2)).toEqual([t.d.code])
    expect(page2.json().data[0].lines).toHaveLength(1)
    expect((await t.core({ url: '/api/v1/orders?Page=9' })).json()).toMatchObject({ count: 0, totalCount: 4 })
  })

  it('filters and orders on code, status, customerId, currency, total, orderDate, dateCreated, dateModified', async () => {
    const t = await catalogue()
    const list = async (query: string) => {
      const response = await t.core({ url: `/api/v1/orders?${query}` })
      expect(response.statusCode, query).toBe(200)
      return codes(response)
    }
    expect(await list("$filter=status eq 'confirmed'")).toEqual([t.a.code])
    expect(await list('$filter=status eq 3')).toEqual([t.c.code])
    expect(await list(`$filter=customerId eq ${t.zeta}&$orderby=orderDate`)).toEqual([t.b.code, t.c.code])
    expect(await list("$filter=currency eq 'EUR'")).toEqual([t.c.code])
    expect(await list('$filter=total gt 50 and total le 100.5&$orderby=total desc')).toEqual([
      t.b.code,
      t.d.code,
    ])
    expect(await list(`$filter=code eq '${t.a.code}'`)).toEqual([t.a.code])
    expect(
      await list('$filter=orderDate ge 2026-01-01 and orderDate lt 2026-03-01&$orderby=orderDate desc'),
    ).toEqual([t.b.code, t.a.code])
    expect(await list('$orderby=total')).toEqual([t.a.code, t.d.code, t.b.code, t.c.code])
    expect(await list('$orderby=dateCreated')).toEqual([t.a.code, t.b.code, t.c.code, t.d.code])
    expect(
      await list('$filter=dateCreated ge 2000-01-01 and dateModified ge 2000-01-01&$orderby=code desc'),
    ).toEqual([t.d.code, t.c.code, t.b.code, t.a.code])
    for (const [query, field] of [
      ["$filter=notes eq 'x'", '$filter'],
      ["$filter=status eq 'Shipped'", '$filter'],
      ['$filter=total gt abc', '$filter'],
      ['$orderby=customer', '$orderby'],
      ['PageSize=0', 'PageSize'],
    ]) {
      const response = await t.core({ url: `/api/v1/orders?${query}` })
      expect(response.statusCode, query).toBe(400)
      expect(fieldsOf(response), query).toEqual([field])
    }
  })

  it("searches code, notes and the customer's name", async () => {
    const t = await catalogue()
    const search = async (text: string) =>
      codes(await t.core({ url: `/api/v1/orders?$search=${encodeURIComponent(text)}` }))
    expect(await search('zeta')).toEqual([t.c.code, t.b.code])
    expect(await search('RUSH')).toEqual([t.a.code])
    expect(await search(t.d.code.toLowerCase())).toEqual([t.d.code])
    expect(await search('%')).toEqual([])
    expect(codes(await t.core({ url: "/api/v1/orders?$search=acme&$filter=status eq 'Draft'" }))).toEqual([
      t.d.code,
    ])
  })
})

describe('orders: credentials and permissions', () => {
  it('works with an API key as well as a bearer token', async () => {
    const { signedIn, org, customerId } = await setup()
    const key = await createApiKey(ctx, signedIn.accessToken, org.businessId, { label: 'orders test' })
    const core = coreAs(ctx, { apiKey: key })
    const order = await createOrder(core, { customerId, lines: [line(3, 19.99), line(0.5, 10.1)] })
    expect(order.total).toBe(65.02)
    expect(
      (await core({ method: 'POST', url: `/api/v1/orders/${order.id}/confirm` })).json().data.status,
    ).toBe('Confirmed')
    expect((await core({ url: '/api/v1/orders' })).json().totalCount).toBe(1)
  })

  it('needs a credential (401); a view-only Member may read but gets 403 on every change', async () => {
    const { core, org, customerId } = await setup()
    const order = await createOrder(core, { customerId, lines: [line(1, 1)] })
    expect((await ctx.core.inject({ url: '/api/v1/orders' })).statusCode).toBe(401)
    expect((await ctx.core.inject({ method: 'POST', url: '/api/v1/orders', payload: {} })).statusCode).toBe(
      401,
    )
    const member = await addMember(ctx, org.businessId)
    expect((await member.core({ url: '/api/v1/orders' })).statusCode).toBe(200)
    expect((await member.core({ url: `/api/v1/orders/${order.id}` })).statusCode).toBe(200)
    const attempts = [
      { method: 'POST' as const, url: '/api/v1/orders', payload: { customerId, lines: [line(1, 1)] } },
      {
        method: 'PUT' as const,
        url: `/api/v1/orders/${order.id}`,
        payload: { customerId, lines: [line(1, 1)] },
      },
      { method: 'POST' as const, url: `/api/v1/orders/${order.id}/confirm` },
      { method: 'POST' as const, url: `/api/v1/orders/${order.id}/cancel` },
    ]
    for (const attempt of attempts) {
      const refused = await member.core(attempt)
      expect(refused.statusCode, attempt.url).toBe(403)
      expect(refused.json().code).toBe('permission_denied')
    }
    expect((await core({ url: '/api/v1/orders' })).json().totalCount).toBe(1)
  })
})

describe('OpenAPI', () => {
  it('documents every orders and customer analytics operation', async () => {
    const response = await ctx.core.inject({ url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json() as {
      paths: Record<string, Record<string, { operationId: string }>>
      components: { schemas: Record<string, { properties: Record<string, unknown> }> }
    }
    const paths = document.paths
    const ids = Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId))
    for (const id of [
      'GetOrders',
      'CreateOrder',
      'GetOrder',
      'UpdateOrder',
      'ConfirmOrder',
      'FulfillOrder',
      'CancelOrder',
    ]) {
      expect(ids).toContain(id)
    }
    expect(ids).toEqual(expect.arrayContaining(['GetKpiMetrics', 'GetSalesData']))
    // Records are published under components.schemas and referenced from the operations.
    const named = (schema: { $ref?: string }) =>
      document.components.schemas[(schema.$ref ?? '').replace('#/components/schemas/', '')]
    const status = paths['/api/v1/orders/{orderId}']?.get as unknown as {
      responses: Record<string, { content: Record<string, { schema: { $ref?: string } }> }>
    }
    const envelope = named(status.responses['200']?.content['application/json']?.schema ?? {})
    const data = named(envelope?.properties.data as { $ref?: string }) as unknown as {
      properties: { status: { enum: string[] } }
    }
    expect(data.properties.status.enum).toEqual([
      'Draft',
      'Confirmed',
      'Fulfilled',
      'Cancelled',
      'PartiallyFulfilled',
    ])
  })
})
