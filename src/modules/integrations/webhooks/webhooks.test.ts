import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf, schemaOf } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { insertShipment } from '../../../modules/sales/orders/orders.fixtures.js'
import { movePlan, plan, shipment } from '../../delivery/plans/plans.fixtures.js'
import { createEndpoint, createOrder, post, webhookSetup } from './webhooks.fixtures.js'

// Private targets are not allowed here (the default): what an operator gets out of the box.
const ctx = useTestContext()
const ENDPOINTS = '/api/v1/webhooks/endpoints'
const hook = { url: 'https://hooks.example.com/cartage', description: 'ERP', eventTypes: ['order.created'] }

describe('webhook endpoints', () => {
  it('creates (secret shown once), reads, lists, replaces and deletes with a bearer token and an API key', async () => {
    const { core, key } = await webhookSetup(ctx)
    const created = await createEndpoint(ctx, core, hook)
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const read = (await key({ url: `${ENDPOINTS}/${created.id}` })).json().data
    expect(read).toMatchObject({
      url: hook.url,
      description: 'ERP',
      eventTypes: ['order.created'],
      enabled: true,
    })
    expect(read).not.toHaveProperty('secret')
    expect(JSON.stringify((await core({ url: ENDPOINTS })).json())).not.toContain(created.secret)
    const stored = await ctx.database.db
      .withSchema(await schemaOf(ctx, read.businessId))
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(stored.secret).not.toContain(created.secret.slice(6, 20))
    await createEndpoint(ctx, key, { url: 'https://b.example.com/', eventTypes: ['order.status_changed'] })
    const list = (await core({ url: `${ENDPOINTS}?$orderby=url asc` })).json()
    expect(list.data.map((e: { url: string }) => e.url)).toEqual(['https://b.example.com/', hook.url])
    expect((await core({ url: `${ENDPOINTS}?$search=ERP` })).json().totalCount).toBe(1)
    const replaced = await key({
      method: 'PUT',
      url: `${ENDPOINTS}/${created.id}`,
      payload: { ...hook, eventTypes: ['order.created', 'shipment.status_changed'], enabled: false },
    })
    expect(replaced.json().data).toMatchObject({
      enabled: false,
      eventTypes: ['order.created', 'shipment.status_changed'],
    })
    expect((await core({ method: 'DELETE', url: `${ENDPOINTS}/${created.id}` })).json().data).toBe(true)
    expect((await core({ url: `${ENDPOINTS}/${created.id}` })).statusCode).toBe(404)
  })

  it('lists the event types', async () => {
    const { key } = await webhookSetup(ctx)
    const types = (await key({ url: '/api/v1/webhooks/event-types' }))
      .json()
      .data.map((t: { type: string }) => t.type)
    expect(types).toEqual(
      expect.arrayContaining([
        'order.created',
        'order.status_changed',
        'shipment.status_changed',
        'delivery_plan.dispatched',
        'stock.below_reorder_level',
        'work_order.completed',
        'purchase_order.received',
      ]),
    )
  })

  it('refuses URLs webhooks may not reach and unknown event types with 400 naming the field', async () => {
    const { core } = await webhookSetup(ctx)
    for (const url of [
      'http://hooks.example.com/x',
      'ftp://hooks.example.com/x',
      'not a url',
      'https://10.1.2.3/x',
      'https://127.0.0.1/x',
      'http://127.0.0.1:9000/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://[::ffff:7f00:1]/x',
      'https://[::127.0.0.1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[64:ff9b::7f00:1]/x',
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
      'https://0x7f000001/x',
      'https://224.0.0.1/x',
      'https://user:pass@hooks.example.com/x',
    ]) {
      const response = await post(core, ENDPOINTS, { ...hook, url })
      expect(response.statusCode, url).toBe(400)
      expect(fieldsOf(response), url).toEqual(['url'])
    }
    const unknown = await post(core, ENDPOINTS, { ...hook, eventTypes: ['order.created', 'order.exploded'] })
    expect(fieldsOf(unknown)).toEqual(['eventTypes'])
    expect(fieldsOf(await post(core, ENDPOINTS, { ...hook, eventTypes: [] }))).toEqual(['eventTypes'])
    expect((await core({ url: `${ENDPOINTS}/not-a-uuid` })).statusCode).toBe(400)
    const endpoint = await createEndpoint(ctx, core, hook)
    const backwards = await post(core, `${ENDPOINTS}/${endpoint.id}/replay`, {
      from: '2026-01-02T00:00:00Z',
      to: '2026-01-01T00:00:00Z',
    })
    expect(fieldsOf(backwards)).toEqual(['to'])
  })

  it('answers 401 without a credential, 403 without the permission, 404 for another organisation', async () => {
    const { core, member, scoped } = await webhookSetup(ctx)
    const other = await webhookSetup(ctx)
    const id = (await createEndpoint(ctx, other.core, hook)).id
    expect((await ctx.core.inject({ url: ENDPOINTS })).statusCode).toBe(401)
    expect((await member({ url: ENDPOINTS })).statusCode).toBe(200)
    expect((await post(member, ENDPOINTS, hook)).statusCode).toBe(403)
    expect((await scoped({ url: ENDPOINTS })).statusCode).toBe(403)
    expect((await member({ method: 'DELETE', url: `${ENDPOINTS}/${randomUUID()}` })).statusCode).toBe(403)
    for (const request of [
      { url: `${ENDPOINTS}/${id}` },
      { method: 'PUT' as const, url: `${ENDPOINTS}/${id}`, payload: hook },
      { method: 'POST' as const, url: `${ENDPOINTS}/${id}/rotate-secret` },
      { method: 'POST' as const, url: `${ENDPOINTS}/${id}/test` },
      { url: `${ENDPOINTS}/${id}/deliveries` },
      {
        method: 'POST' as const,
        url: `${ENDPOINTS}/${id}/replay`,
        payload: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' },
      },
      { method: 'DELETE' as const, url: `${ENDPOINTS}/${id}` },
      { method: 'POST' as const, url: `/api/v1/webhooks/events/${randomUUID()}/replay` },
    ]) {
      expect((await core(request)).statusCode, `${request.method ?? 'GET'} ${request.url}`).toBe(404)
    }
  })

  it('rotates the secret: a new one shown once, the previous one signing for the grace period', async () => {
    const { core } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, hook)
    const rotated = await post(core, `${ENDPOINTS}/${endpoint.id}/rotate-secret?graceSeconds=3600`)
    expect(rotated.statusCode).toBe(200)
    const data = rotated.json().data
    expect(data.secret).toMatch(/^whsec_/)
    expect(data.secret).not.toBe(endpoint.secret)
    const expires = new Date(data.previousSecretExpiresAt).getTime()
    expect(expires - Date.now()).toBeGreaterThan(3500_000)
    expect(fieldsOf(await post(core, `${ENDPOINTS}/${endpoint.id}/rotate-secret?graceSeconds=-1`))).toEqual([
      'graceSeconds',
    ])
  })

  it('test-send to an address webhooks may not reach answers Refused and logs it', async () => {
    const { core } = await webhookSetup(ctx)
    const endpoint = await createEndpoint(ctx, core, { ...hook, url: 'https://localhost/hooks' })
    const sent = await post(core, `${ENDPOINTS}/${endpoint.id}/test`)
    expect(sent.statusCode).toBe(200)
    expect(sent.json().data).toMatchObject({
      outcome: 'Refused',
      eventType: 'webhook.test',
      responseStatus: null,
    })
    expect(sent.json().data.error).toContain('loopback')
    const log = (await core({ url: `${ENDPOINTS}/${endpoint.id}/deliveries` })).json()
    expect(log.data).toHaveLength(1)
    expect(log.data[0].outcome).toBe('Refused')
    expect(
      (await core({ url: `${ENDPOINTS}/${endpoint.id}/deliveries?$filter=outcome eq 'Succeeded'` })).json()
        .totalCount,
    ).toBe(0)
  })
})

describe('the outbox', () => {
  it('writes an event with its change, for subscribed endpoints only, and nothing for a change that fails', async () => {
    const { core, customerId } = await webhookSetup(ctx)
    await createOrder(core, customerId)
    expect((await core({ url: '/api/v1/webhooks/events' })).json().totalCount).toBe(0)
    const endpoint = await createEndpoint(ctx, core, {
      ...hook,
      eventTypes: ['order.created', 'order.status_changed'],
    })
    const disabled = await createEndpoint(ctx, core, {
      ...hook,
      eventTypes: ['order.created'],
      enabled: false,
    })
    const order = await createOrder(core, customerId)
    expect((await post(core, `/api/v1/orders/${order.id}/cancel`)).statusCode).toBe(200)
    expect((await post(core, '/api/v1/orders', { customerId: randomUUID(), lines: [] })).statusCode).toBe(400)
    const events = (await core({ url: '/api/v1/webhooks/events?$orderby=dateCreated asc' })).json()
    expect(events.data.map((e: { type: string }) => e.type)).toEqual([
      'order.created',
      'order.status_changed',
    ])
    expect(events.data[0]).toMatchObject({
      resource: `orderId:${order.id}`,
      data: { orderId: order.id, code: order.code },
    })
    expect(events.data[1].data).toMatchObject({ orderId: order.id, from: 'Draft', to: 'Cancelled' })
    expect(events.data[0].deliveries).toEqual([
      expect.objectContaining({ endpointId: endpoint.id, status: 'Pending', attempts: 0 }),
    ])
    expect(JSON.stringify(events)).not.toContain(disabled.id)
    const replayed = await post(core, `/api/v1/webhooks/events/${events.data[0].id}/replay`)
    expect(replayed.json().data).toEqual({ queued: 1 })
    const range = await post(core, `${ENDPOINTS}/${endpoint.id}/replay`, {
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    })
    expect(range.json().data).toEqual({ queued: 2 })
  })

  it('writes shipment.status_changed with the status left and the one reached', async () => {
    const { core, customerId, org } = await webhookSetup(ctx)
    await createEndpoint(ctx, core, { ...hook, eventTypes: ['shipment.status_changed'] })
    const shipmentId = await insertShipment(ctx, org.businessId, {
      customerId,
      status: 'Pending',
      fulfillmentCost: 0,
    })
    expect((await post(core, `/api/v1/shipments/${shipmentId}/assign`)).statusCode).toBe(200)
    expect((await post(core, `/api/v1/shipments/${shipmentId}/cancel`)).statusCode).toBe(200)
    expect((await post(core, `/api/v1/shipments/${shipmentId}/cancel`)).statusCode).toBe(409)
    const events = (await core({ url: '/api/v1/webhooks/events?$orderby=dateCreated asc' })).json().data
    expect(events.map((e: { data: { from: string; to: string } }) => [e.data.from, e.data.to])).toEqual([
      ['Pending', 'Assigned'],
      ['Assigned', 'Cancelled'],
    ])
    expect(events[0]).toMatchObject({ type: 'shipment.status_changed', resource: `shipmentId:${shipmentId}` })
  })

  it('writes shipment.status_changed for each shipment a plan’s dispatch puts in transit, and the plan’s event', async () => {
    const { core } = await webhookSetup(ctx)
    const both = await createEndpoint(ctx, core, {
      ...hook,
      eventTypes: ['shipment.status_changed', 'delivery_plan.dispatched'],
    })
    const planOnly = await createEndpoint(ctx, core, { ...hook, eventTypes: ['delivery_plan.dispatched'] })
    const first = await shipment(core)
    const second = await shipment(core)
    const planned = await plan(core, { shipmentIds: [first.id, second.id] })
    expect((await movePlan(core, planned.id, 'schedule')).statusCode).toBe(200)
    expect((await movePlan(core, planned.id, 'dispatch')).statusCode).toBe(200)
    const events = (await core({ url: '/api/v1/webhooks/events?$orderby=dateCreated asc' })).json().data
    const moves = events
      .filter((e: { type: string }) => e.type === 'shipment.status_changed')
      .map((e: { resource: string; data: { from: string; to: string } }) => [
        e.resource,
        e.data.from,
        e.data.to,
      ])
    expect(moves).toHaveLength(2)
    for (const s of [first, second])
      expect(moves).toContainEqual([`shipmentId:${s.id}`, 'Assigned', 'InTransit'])
    // Only the types some endpoint wants (shipment.dispatched is published too), each to its endpoints.
    expect(events.map((e: { type: string }) => e.type).sort()).toEqual([
      'delivery_plan.dispatched',
      'shipment.status_changed',
      'shipment.status_changed',
    ])
    const deliveredTo = (e: { deliveries: { endpointId: string }[] }) =>
      e.deliveries.map((d) => d.endpointId).sort()
    const planEvent = events.find((e: { type: string }) => e.type === 'delivery_plan.dispatched')
    expect(planEvent).toMatchObject({
      resource: `deliveryPlanId:${planned.id}`,
      data: { code: planned.code },
    })
    expect(deliveredTo(planEvent)).toEqual([both.id, planOnly.id].sort())
    for (const e of events.filter((e: { type: string }) => e.type === 'shipment.status_changed'))
      expect(deliveredTo(e)).toEqual([both.id])
  })
})
