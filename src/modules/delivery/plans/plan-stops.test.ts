import { describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { deliverySetup, put } from '../delivery.fixtures.js'
import { movePlan, PLANS, plan, shipment } from './plans.fixtures.js'

const ctx = useTestContext()

describe('re-ordering a plan’s stops', () => {
  it('puts the stops in the order sent, refuses an incomplete or foreign list, and a dispatched plan', async () => {
    const { core, member } = await deliverySetup(ctx)
    const [a, b, c] = [await shipment(core), await shipment(core), await shipment(core)]
    const p = await plan(core, { shipmentIds: [a.id, b.id, c.id] })
    const order = (data: { shipments: { id: string; stopSequence: number }[] }) =>
      data.shipments.map((s) => [s.id, s.stopSequence])

    const moved = await put(core, `${PLANS}/${p.id}/stops`, { shipmentIds: [c.id, a.id, b.id] })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(order(moved.json().data)).toEqual([
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ])
    expect(order((await core({ url: `${PLANS}/${p.id}` })).json().data)).toEqual(order(moved.json().data))

    const missing = await put(core, `${PLANS}/${p.id}/stops`, { shipmentIds: [a.id, b.id] })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().reasons).toEqual([{ field: 'shipmentIds', message: expect.stringContaining(c.id) }])
    const stranger = await shipment(core)
    const foreign = await put(core, `${PLANS}/${p.id}/stops`, {
      shipmentIds: [a.id, b.id, c.id, stranger.id],
    })
    expect(foreign.statusCode).toBe(400)
    expect(foreign.json().reasons[0].message).toContain(stranger.id)
    const twice = await put(core, `${PLANS}/${p.id}/stops`, { shipmentIds: [a.id, b.id, c.id, a.id] })
    expect(twice.statusCode).toBe(400)
    expect(twice.json().reasons[0].field).toBe('shipmentIds')
    const empty = await put(core, `${PLANS}/${p.id}/stops`, { shipmentIds: [] })
    expect(empty.statusCode).toBe(400)
    // Nothing refused changed the order.
    expect(order((await core({ url: `${PLANS}/${p.id}` })).json().data)).toEqual(order(moved.json().data))

    // A member without Shipments: Modify may not; another organisation's plan does not exist.
    expect(
      (await put(member, `${PLANS}/${p.id}/stops`, { shipmentIds: [a.id, b.id, c.id] })).statusCode,
    ).toBe(403)
    const other = await ownerSession(ctx)
    expect(
      (await put(other.core, `${PLANS}/${p.id}/stops`, { shipmentIds: [a.id, b.id, c.id] })).statusCode,
    ).toBe(404)

    await movePlan(core, p.id, 'schedule')
    await movePlan(core, p.id, 'dispatch')
    const late = await put(core, `${PLANS}/${p.id}/stops`, { shipmentIds: [a.id, b.id, c.id] })
    expect(late.statusCode).toBe(409)
    expect(late.json().code).toBe('plan_not_editable')
  })
})
