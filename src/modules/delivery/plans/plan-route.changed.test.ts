import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { post } from '../delivery.fixtures.js'
import { square } from '../zones/zones.fixtures.js'
import { movePlan, PLANS, plan, shipment } from './plans.fixtures.js'
import { greatCircleKm } from './routing.js'

/**
 * A stand-in road network speaking OSRM's table protocol (10 m/s over great-circle distance). Each
 * table request waits for `hold` first: autobatch and re-optimising search between their two
 * transactions and ask for the matrix in between, so this is where a test changes the plan or lets a
 * second request catch up.
 */
let hold: () => Promise<void> = async () => {}
let tables = 0
let server: Server
const env: Record<string, string> = {}
beforeAll(async () => {
  server = createServer((request, response) => {
    const coordinates = (request.url ?? '').split('/table/v1/driving/')[1]?.split('?')[0] ?? ''
    const points = coordinates.split(';').map((pair) => {
      const [longitude, latitude] = pair.split(',').map(Number)
      return { latitude: latitude ?? 0, longitude: longitude ?? 0 }
    })
    tables += 1
    const metres = points.map((a) => points.map((b) => greatCircleKm(a, b) * 1000))
    void hold().then(() => {
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          code: 'Ok',
          distances: metres,
          durations: metres.map((row) => row.map((m) => m / 10)),
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  env.ROUTING_OSRM_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const ctx = useTestContext(env)
const owner = useOwnerSession(ctx)
const DEPOT = { fullAddress: 'Depot', latitude: -33.92, longitude: 18.42 }

const planOf = async (id: string) =>
  ((await owner.core({ url: `/api/v1/shipments/${id}` })).json().data as { deliveryPlanId: string | null })
    .deliveryPlanId

describe('autobatch while the plan changes', () => {
  it('answers 409 plan_changed and writes nothing when a shipment of the day changed during the search', async () => {
    const { core } = owner
    const day = '2026-12-10'
    await post(core, '/api/v1/DeliveryZones', {
      name: `Changed ${day}`,
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    const first = await shipment(core, -33.9, 18.45, { scheduledDate: `${day}T08:00:00Z` })
    const second = await shipment(core, -33.95, 18.4, { scheduledDate: `${day}T08:00:00Z` })
    const p = await plan(core, { scheduledDate: day, depot: DEPOT })
    hold = async () => {
      hold = async () => {}
      const moved = await core({
        method: 'PUT',
        url: `/api/v1/shipments/${first.id}`,
        payload: {
          deliveryAddress: { fullAddress: 'moved', latitude: -33.91, longitude: 18.46 },
          weight: 10,
          scheduledDate: `${day}T08:00:00Z`,
        },
      })
      expect(moved.statusCode, moved.body).toBe(200)
    }
    const before = tables
    const changed = await post(core, `${PLANS}/${p.id}/autobatch`)
    expect(changed.statusCode, changed.body).toBe(409)
    expect(changed.json().code).toBe('plan_changed')
    expect(tables).toBe(before + 1)
    for (const s of [first, second]) expect(await planOf(s.id)).toBeNull()
    expect((await core({ url: `${PLANS}/${p.id}` })).json().data.autobatchedAt).toBeNull()
    // Run again, the day as it now is goes through, on the road network's times (10 m/s).
    const again = await post(core, `${PLANS}/${p.id}/autobatch`)
    expect(again.statusCode, again.body).toBe(200)
    const stops = (await core({ url: `${PLANS}/${p.id}` })).json().data.shipments as {
      id: string
      plannedArrival: string
      deliveryAddress: { latitude: number; longitude: number }
    }[]
    expect(stops.map((s) => s.id).sort()).toEqual([first.id, second.id].sort())
    const [nearest] = stops
    const seconds = (greatCircleKm(DEPOT, nearest?.deliveryAddress ?? DEPOT) * 1000) / 10
    expect(Date.parse(nearest?.plannedArrival ?? '') - Date.parse(`${day}T08:00:00Z`)).toBeCloseTo(
      seconds * 1000,
      -3,
    )
  })
})

interface Stop {
  id: string
  stopSequence: number
  plannedArrival: string | null
}
const timesOf = (stops: Stop[]) => stops.map((s) => [s.id, s.stopSequence, s.plannedArrival])

/** A Scheduled plan of three stops, never planned (no times yet). */
async function scheduledPlan(day: string) {
  const { core } = owner
  const ids = []
  for (const [lat, lon] of [
    [-33.9, 18.45],
    [-33.95, 18.4],
    [-33.93, 18.47],
  ] as const)
    ids.push((await shipment(core, lat, lon, { scheduledDate: `${day}T08:00:00Z` })).id)
  const p = await plan(core, { scheduledDate: day, depot: DEPOT, shipmentIds: ids })
  expect((await movePlan(core, p.id, 'schedule')).statusCode).toBe(200)
  return { id: p.id, ids }
}

describe('re-optimising while the plan changes', () => {
  it('lets one of two re-optimisations of a plan write, the other answering 409 plan_changed', async () => {
    const p = await scheduledPlan('2026-12-12')
    // Both have read the plan before either writes: neither matrix is answered until both asked.
    let release: () => void = () => {}
    const bothAsked = new Promise<void>((resolve) => {
      release = resolve
    })
    let asked = 0
    hold = () => {
      asked += 1
      if (asked === 2) release()
      return bothAsked
    }
    const answers = await Promise.all([1, 2].map(() => post(owner.core, `${PLANS}/${p.id}/reoptimise`)))
    hold = async () => {}
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.statusCode === 409)?.json().code).toBe('plan_changed')
    const winner = answers.find((a) => a.statusCode === 200)?.json().data.shipments as Stop[]
    const stored = (await owner.core({ url: `${PLANS}/${p.id}` })).json().data.shipments as Stop[]
    expect(timesOf(stored)).toEqual(timesOf(winner))
    expect(stored.every((s) => s.plannedArrival !== null)).toBe(true)
    // Tried again, the loser finds the same plan.
    const again = await post(owner.core, `${PLANS}/${p.id}/reoptimise`)
    expect(timesOf(again.json().data.shipments)).toEqual(timesOf(winner))
  })

  it('answers 409 plan_changed and writes nothing when a stop is reported during the search', async () => {
    const { core } = owner
    const p = await scheduledPlan('2026-12-13')
    expect((await movePlan(core, p.id, 'dispatch')).statusCode).toBe(200)
    hold = async () => {
      hold = async () => {}
      const arrived = await post(core, `/api/v1/shipments/${p.ids[1]}/stop/arrived`)
      expect(arrived.statusCode, arrived.body).toBe(200)
    }
    const changed = await post(core, `${PLANS}/${p.id}/reoptimise`)
    expect(changed.statusCode, changed.body).toBe(409)
    expect(changed.json().code).toBe('plan_changed')
    const stored = (await core({ url: `${PLANS}/${p.id}` })).json().data.shipments as Stop[]
    expect(stored.map((s) => [s.id, s.plannedArrival])).toEqual(p.ids.map((id) => [id, null]))
    // Again: the arrived stop now heads the plan, kept in place.
    const again = await post(core, `${PLANS}/${p.id}/reoptimise`)
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json().data.shipments[0].id).toBe(p.ids[1])
  })

  it.runIf(process.env.CARTAGE_TEST_DATABASE === 'postgres')(
    'serialises parallel re-optimisations of one plan on PostgreSQL: each writes the same plan or answers 409',
    async () => {
      const p = await scheduledPlan('2026-12-14')
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => post(owner.core, `${PLANS}/${p.id}/reoptimise`)),
      )
      const ok = answers.filter((a) => a.statusCode === 200)
      expect(ok.length).toBeGreaterThanOrEqual(1)
      for (const refused of answers.filter((a) => a.statusCode !== 200)) {
        expect(refused.statusCode, refused.body).toBe(409)
        expect(refused.json().code).toBe('plan_changed')
      }
      const stored = (await owner.core({ url: `${PLANS}/${p.id}` })).json().data.shipments as Stop[]
      expect(stored.map((s) => s.stopSequence)).toEqual([1, 2, 3])
      for (const answer of ok) expect(timesOf(answer.json().data.shipments)).toEqual(timesOf(stored))
      const notes = (await owner.core({ url: '/api/notifications/user?PageSize=100' })).json().data as {
        title: string
        entityId: string
      }[]
      const told = notes.filter((n) => n.title === 'Delivery plan re-optimised' && n.entityId === p.id)
      expect(told).toHaveLength(ok.length)
    },
    60_000,
  )
})
