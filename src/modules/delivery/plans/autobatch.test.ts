import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post } from '../delivery.fixtures.js'
import { square } from '../zones/zones.fixtures.js'
import { DAY, PLANS, plan, shipment } from './plans.fixtures.js'
import { type Point, routeKm } from './routing.js'

const ctx = useTestContext()
const DEPOT = { latitude: -34.4, longitude: 18.05 }
// Inside the zone, outside its hole, at growing distance from the depot (in a zig-zag, so the code order is poor).
const INSIDE: Point[] = [
  { latitude: -33.6, longitude: 18.9 },
  { latitude: -34.3, longitude: 18.1 },
  { latitude: -33.7, longitude: 18.2 },
  { latitude: -34.2, longitude: 18.8 },
  { latitude: -33.8, longitude: 18.7 },
  { latitude: -34.35, longitude: 18.3 },
]

async function scenario() {
  const setup = await deliverySetup(ctx)
  const { core } = setup
  const zone = await post(core, '/api/v1/DeliveryZones', {
    name: 'Metro',
    polygon: {
      type: 'Polygon',
      coordinates: [square(18, -34.5, 19, -33.5), square(18.4, -34.1, 18.6, -33.9)],
    },
  })
  const vehicle = await post(core, '/api/v1/vehicles', {
    registration: 'CAP1',
    name: 'Truck',
    maxWeight: 50,
    maxVolume: 1,
  })
  const inside = []
  for (const p of INSIDE) inside.push(await shipment(core, p.latitude, p.longitude))
  const inHole = await shipment(core, -34.0, 18.5)
  const outside = await shipment(core, -30, 25)
  const noLocation = await shipment(core, 0, 0, { deliveryAddress: { fullAddress: 'unknown' } })
  const otherDay = await shipment(core, -33.6, 18.9, { scheduledDate: '2026-12-05T08:00:00Z' })
  const p = await plan(core, {
    vehicleId: vehicle.json().data.id,
    deliveryZoneIds: [zone.json().data.id],
    depot: { fullAddress: 'Depot', ...DEPOT },
  })
  return { ...setup, inside, inHole, outside, noLocation, otherDay, plan: p }
}

/** The shortest open route from the depot through five of the six inside points, by enumeration. */
function shortestFiveOfSix() {
  const orders = (rest: number[]): number[][] =>
    rest.length <= 1
      ? [rest]
      : rest.flatMap((x, i) => orders([...rest.slice(0, i), ...rest.slice(i + 1)]).map((o) => [x, ...o]))
  let best = Number.POSITIVE_INFINITY
  for (let out = 0; out < INSIDE.length; out++) {
    const kept = INSIDE.filter((_, i) => i !== out)
    for (const order of orders([0, 1, 2, 3, 4])) best = Math.min(best, routeKm(DEPOT, kept, order))
  }
  return best
}

type Stop = { id: string; code: string; stopSequence: number; weight: number; deliveryAddress: Point }

describe('autobatch', () => {
  it('respects capacity, zones and holes, serves the five stops with the shortest route, and is deterministic', async () => {
    const s = await scenario()
    const run = await post(s.key, `${PLANS}/${s.plan.id}/autobatch`)
    expect(run.statusCode, run.body).toBe(200)
    expect(run.json().data).toBe(true)
    const result = (await s.core({ url: `${PLANS}/${s.plan.id}` })).json().data
    const stops = result.shipments as Stop[]
    // Capacity 50 kg / 1 m3 with 10 kg / 0.1 m3 each: five of the six inside. The one left out is the
    // one whose absence shortens the route most (154.4 km), not the farthest from the depot (173.1 km).
    expect(stops).toHaveLength(5)
    expect(result.totals.weight).toBeLessThanOrEqual(50)
    expect(result.totals.volume).toBeLessThanOrEqual(1)
    const ids = stops.map((x) => x.id)
    expect(ids).not.toContain(s.inside[2]?.id)
    for (const out of [s.inHole, s.outside, s.noLocation, s.otherDay]) expect(ids).not.toContain(out.id)
    expect(stops.map((x) => x.stopSequence)).toEqual([1, 2, 3, 4, 5])
    const points = stops.map((x) => x.deliveryAddress)
    const optimised = routeKm(DEPOT, points, [0, 1, 2, 3, 4])
    const byCode = [...stops].sort((a, b) => a.code.localeCompare(b.code)).map((x) => x.deliveryAddress)
    const naive = routeKm(DEPOT, byCode, [0, 1, 2, 3, 4])
    expect(optimised).toBeLessThanOrEqual(naive + 1e-6)
    expect(optimised).toBeCloseTo(shortestFiveOfSix(), 3)
    expect(result.totals.distanceKm).toBeCloseTo(optimised, 2)
    expect(result.autobatchedAt).toBeTruthy()

    await post(s.core, `${PLANS}/${s.plan.id}/autobatch`)
    const again = (await s.core({ url: `${PLANS}/${s.plan.id}` })).json().data
    expect(again.shipments.map((x: Stop) => x.id)).toEqual(ids)
    expect(again.totals.distanceKm).toBe(result.totals.distanceKm)

    const twin = await scenario()
    await post(twin.core, `${PLANS}/${twin.plan.id}/autobatch`)
    const twinStops = (await twin.core({ url: `${PLANS}/${twin.plan.id}` })).json().data.shipments as Stop[]
    expect(twinStops.map((x) => x.code)).toEqual(stops.map((x) => x.code))
  })

  it('draws from every active zone when the plan names none, and refuses a dispatched plan', async () => {
    const { core } = await deliverySetup(ctx)
    await post(core, '/api/v1/DeliveryZones', {
      name: 'All',
      polygon: { type: 'Polygon', coordinates: [square(18, -35, 19, -33)] },
    })
    const a = await shipment(core, -34, 18.5)
    const far = await shipment(core, 10, 10)
    const p = await plan(core)
    await post(core, `${PLANS}/${p.id}/autobatch`)
    const data = (await core({ url: `${PLANS}/${p.id}` })).json().data
    expect(data.shipments.map((x: Stop) => x.id)).toEqual([a.id])
    expect((await core({ url: `/api/v1/shipments/${far.id}` })).json().data.deliveryPlanId).toBeNull()
    await post(core, `${PLANS}/${p.id}/schedule`)
    await post(core, `${PLANS}/${p.id}/dispatch`)
    const refused = await post(core, `${PLANS}/${p.id}/autobatch`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('plan_not_editable')
  })

  it.runIf(process.env.CARTAGE_TEST_DATABASE === 'postgres')(
    'hands out 200 distinct dispatch codes to 200 parallel requests',
    async () => {
      const { core } = await deliverySetup(ctx)
      const responses = await Promise.all(Array.from({ length: 200 }, () => core({ url: `${PLANS}/code` })))
      expect(responses.every((r) => r.statusCode === 200)).toBe(true)
      const codes = responses.map((r) => r.json().data.code as string)
      expect(new Set(codes).size).toBe(200)
      const sequences = codes.map((c) => Number(c.split('-')[2])).sort((a, b) => a - b)
      expect(sequences).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
    },
    60_000,
  )

  it('saves the same reserved code from parallel requests into one plan', async () => {
    const { core } = await deliverySetup(ctx)
    const code = (await core({ url: `${PLANS}/code` })).json().data.code
    const saves = await Promise.all(
      Array.from({ length: 10 }, () => post(core, PLANS, { code, scheduledDate: DAY })),
    )
    expect(new Set(saves.map((r) => r.json().data.id)).size).toBe(1)
    expect((await core({ url: PLANS })).json().totalCount).toBe(1)
  })
})
