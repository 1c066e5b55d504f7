import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  addMember,
  addRole,
  createApiKey,
  fieldsOf,
  organizationIdOf,
  schemaOf,
} from '../../../test/fixtures.js'
import { type Core, coreAs, useTestContext } from '../../../test/harness.js'
import { deliverySetup, post } from '../delivery/delivery.fixtures.js'
import { movePlan, plan, shipment } from '../delivery/plans/plans.fixtures.js'

const ctx = useTestContext()
type Note = {
  id: string
  title: string
  message: string
  readNotification: boolean
  level: string
  entityType: string
  entityId: string | null
  user: { id: string }
}
const notes = async (core: Core, query = '') => {
  const response = await core({ url: `/api/notifications/user${query}` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as Note[]
}

describe('notifications', () => {
  it('are created from delivery, carrier and API key events for every member, each seeing their own', async () => {
    const s = await deliverySetup(ctx)
    const before = (await notes(s.core)).length // the API keys created by the setup
    expect(before).toBe(2)
    const one = await shipment(s.core)
    const two = await shipment(s.core)
    const p = await plan(s.core, { shipmentIds: [one.id, two.id] })
    await movePlan(s.core, p.id, 'schedule')
    await movePlan(s.core, p.id, 'dispatch')
    await post(s.core, `/api/v1/shipments/${one.id}/deliver`)
    await post(s.core, `/api/v1/shipments/${two.id}/fail`, { reason: 'Gate locked' })
    await movePlan(s.core, p.id, 'complete')
    await post(s.key, '/api/carriers/configure', { carrierId: 2 })
    const p2 = await plan(s.core)
    await post(s.core, `${'/api/v1/plans'}/${p2.id}/autobatch`)
    const titles = (await notes(s.core)).map((n) => n.title)
    expect(titles).toEqual([
      'Autobatch finished',
      'Carrier configured',
      'Delivery plan completed',
      'Delivery failed',
      'Shipment delivered',
      'Delivery plan dispatched',
      'API key created',
      'API key created',
    ])
    const failed = (await notes(s.core)).find((n) => n.title === 'Delivery failed') as Note
    expect(failed).toMatchObject({
      level: 'Warning',
      entityType: 'Shipment',
      entityId: two.id,
      user: { id: s.org.userId },
    })
    expect(failed.message).toContain('Gate locked')
    // The member joined after the setup's API keys were made: everything since, not those.
    expect((await notes(s.member)).map((n) => n.title)).toEqual(titles.slice(0, -2))
  })

  it('carries the autobatch counts and the manufacturing events', async () => {
    const s = await deliverySetup(ctx)
    await post(s.core, '/api/v1/DeliveryZones', {
      name: 'Z',
      polygon: {
        type: 'Polygon',
        coordinates: [
          [
            [18, -35],
            [19, -35],
            [19, -33],
            [18, -33],
            [18, -35],
          ],
        ],
      },
    })
    await shipment(s.core, -34, 18.5)
    await shipment(s.core, 10, 10)
    const p = await plan(s.core)
    await post(s.core, `/api/v1/plans/${p.id}/autobatch`)
    const schema = await schemaOf(ctx, s.org.businessId)
    await ctx.database.db.transaction().execute(async (trx) => {
      await ctx.services.events.publish(trx, schema, {
        type: 'WorkOrderCompleted',
        businessId: s.org.businessId,
        userId: null,
        payload: {
          workOrderId: randomUUID(),
          code: 'WO-000001',
          productId: randomUUID(),
          quantityProduced: 12,
        },
      })
      await ctx.services.events.publish(trx, schema, {
        type: 'StockAtReorderLevel',
        businessId: s.org.businessId,
        userId: null,
        payload: { productId: randomUUID(), sku: 'BOLT-1', name: 'Bolt', onHand: 4, reorderLevel: 5 },
      })
    })
    const [stock, workOrder, autobatch] = await notes(s.core)
    expect(autobatch?.message).toContain('1 shipment(s) assigned, 1 left out (1 outside')
    expect(workOrder).toMatchObject({ title: 'Work order completed', entityType: 'WorkOrder' })
    expect(stock).toMatchObject({ title: 'Stock at reorder level', level: 'Warning', entityType: 'Product' })
    expect(stock?.message).toContain('BOLT-1')
  })

  it('reads one, patches read state, marks all read, and hides other users’ notifications', async () => {
    const s = await deliverySetup(ctx)
    const [first] = await notes(s.core)
    const one = await s.core({ url: `/api/notification?id=${first?.id}` })
    expect(one.json()).toMatchObject({
      data: { id: first?.id },
      statusCode: 'OK',
      message: '',
      canRead: true,
      canEdit: true,
      canDelete: false,
    })
    expect((await s.member({ url: `/api/notification?id=${first?.id}` })).statusCode).toBe(404)
    expect((await s.core({ url: `/api/notification?id=${randomUUID()}` })).statusCode).toBe(404)
    expect((await s.core({ url: '/api/notification' })).statusCode).toBe(404)
    const patched = await s.core({
      method: 'PATCH',
      url: `/api/notification/${first?.id}`,
      payload: { read: true },
    })
    expect(patched.json()).toMatchObject({ data: true, canRead: true })
    expect(await notes(s.core)).toHaveLength(1)
    expect(await notes(s.core, '?includeRead=true')).toHaveLength(2)
    expect(
      (await s.member({ method: 'PATCH', url: `/api/notification/${first?.id}`, payload: { read: false } }))
        .statusCode,
    ).toBe(404)
    expect(
      fieldsOf(await s.core({ method: 'PATCH', url: `/api/notification/${first?.id}`, payload: {} })),
    ).toContain('read')
    const marked = await s.core({ method: 'PATCH', url: '/api/notification/mark-all-read' })
    expect(marked.json()).toMatchObject({ data: 1, canDelete: false })
    expect((await s.core({ method: 'PATCH', url: '/api/notification/mark-all-read' })).json().data).toBe(0)
    expect((await s.member({ method: 'PATCH', url: '/api/notification/mark-all-read' })).json().data).toBe(0)
  })

  it('answers 401 without a credential and 403 without Settings view on the list', async () => {
    const s = await deliverySetup(ctx)
    expect((await ctx.core.inject({ url: '/api/notifications/user' })).statusCode).toBe(401)
    expect(
      (await ctx.core.inject({ method: 'PATCH', url: '/api/notification/mark-all-read' })).statusCode,
    ).toBe(401)
    const noSettings = await addRole(ctx, await organizationIdOf(ctx, s.org.businessId), { Orders: 1 })
    const member = await addMember(ctx, s.org.businessId, { role: 'Custom', customRoleId: noSettings })
    const refused = await member.core({ url: '/api/notifications/user' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('permission_denied')
    expect((await member.core({ method: 'PATCH', url: '/api/notification/mark-all-read' })).statusCode).toBe(
      200,
    )
    expect((await s.core({ url: '/api/notifications/user?includeRead=maybe' })).statusCode).toBe(400)
  })
})

describe('API keys', () => {
  it('neither read nor change anyone’s notifications, whatever their scopes (403 api_key_not_allowed)', async () => {
    const s = await deliverySetup(ctx, { Customers: 1 })
    const settingsView = coreAs(ctx, {
      apiKey: await createApiKey(ctx, s.signedIn.accessToken, s.org.businessId, {
        scopes: '{"Settings": 1}',
      }),
    })
    const [first] = await notes(s.core)
    if (!first) throw new Error('the setup left no notification')
    for (const key of [s.key, s.scoped, settingsView]) {
      for (const request of [
        { url: '/api/notifications/user?includeRead=true' },
        { url: `/api/notification?id=${first.id}` },
        { method: 'PATCH' as const, url: `/api/notification/${first.id}`, payload: { read: true } },
        { method: 'PATCH' as const, url: '/api/notification/mark-all-read' },
      ]) {
        const response = await key(request)
        expect(response.statusCode, request.url).toBe(403)
        expect(response.json(), request.url).toMatchObject({
          code: 'api_key_not_allowed',
          message: expect.stringContaining('An API key has no notifications'),
        })
      }
    }
    // The owner's notifications are as they were: all unread (one per key made), and the owner still marks them.
    const unread = await notes(s.core)
    expect(unread.map((n) => n.title)).toEqual(['API key created', 'API key created', 'API key created'])
    const marked = await s.core({
      method: 'PATCH',
      url: `/api/notification/${first.id}`,
      payload: { read: true },
    })
    expect(marked.json().data).toBe(true)
    expect(await notes(s.core)).toHaveLength(2)
  })
})
