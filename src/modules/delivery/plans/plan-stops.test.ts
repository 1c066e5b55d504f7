import { beforeAll, describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { deliverySetup, put } from '../delivery.fixtures.js'
import { movePlan, PLANS, plan, shipment } from './plans.fixtures.js'

const ctx = useTestContext()
let setup: Awaited<ReturnType<typeof deliverySetup>>
beforeAll(async () => {
  setup = await deliverySetup(ctx)
})

type Stops = { shipments: { id: string; stopSequence: number }[] }
const order = (data: Stops) => data.shipments.map((s) => [s.id, s.stopSequence])

/** A Draft plan of three stops, in the order created. */
async function planOfThree() {
  const { core } = setup
  const [a, b, c] = [await shipment(core), await shipment(core), await shipment(core)]
  const p = await plan(core, { shipmentIds: [a.id, b.id, c.id] })
  return { p, a, b, c, url: `${PLANS}/${p.id}/stops` }
}

describe('re-ordering a plan’s stops', () => {
  it('numbers the stops in the order sent, as the plan then reads', async () => {
    const { core } = setup
    const { p, a, b, c, url } = await planOfThree()
    const moved = await put(core, url, { shipmentIds: [c.id, a.id, b.id] })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(order(moved.json().data)).toEqual([
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ])
    expect(order((await core({ url: `${PLANS}/${p.id}` })).json().data)).toEqual(order(moved.json().data))
  })

  it('refuses a list missing a stop, naming one twice, or naming one not on the plan, and changes nothing', async () => {
    const { core } = setup
    const { p, a, b, c, url } = await planOfThree()
    const before = order((await core({ url: `${PLANS}/${p.id}` })).json().data)
    const missing = await put(core, url, { shipmentIds: [a.id, b.id] })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().reasons).toEqual([{ field: 'shipmentIds', message: expect.stringContaining(c.id) }])
    const stranger = await shipment(core)
    const foreign = await put(core, url, { shipmentIds: [a.id, b.id, c.id, stranger.id] })
    expect(foreign.statusCode).toBe(400)
    expect(foreign.json().reasons[0].message).toContain(stranger.id)
    const twice = await put(core, url, { shipmentIds: [a.id, b.id, c.id, a.id] })
    expect(twice.statusCode).toBe(400)
    expect(twice.json().reasons[0].field).toBe('shipmentIds')
    expect((await put(core, url, { shipmentIds: [] })).statusCode).toBe(400)
    expect(order((await core({ url: `${PLANS}/${p.id}` })).json().data)).toEqual(before)
  })

  it('is for those with Shipments: Modify, on their own plans, while Draft or Scheduled', async () => {
    const { core, member } = setup
    const { p, a, b, c, url } = await planOfThree()
    const body = { shipmentIds: [b.id, a.id, c.id] }
    expect((await put(member, url, body)).statusCode).toBe(403)
    const other = await ownerSession(ctx)
    expect((await put(other.core, url, body)).statusCode).toBe(404)
    await movePlan(core, p.id, 'schedule')
    expect((await put(core, url, body)).statusCode).toBe(200)
    await movePlan(core, p.id, 'dispatch')
    const late = await put(core, url, { shipmentIds: [a.id, b.id, c.id] })
    expect(late.statusCode).toBe(409)
    expect(late.json().code).toBe('plan_not_editable')
  })
})
