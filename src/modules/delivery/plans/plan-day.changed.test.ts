import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { post } from '../delivery.fixtures.js'
import { PLANS, shipment } from './plans.fixtures.js'
import { greatCircleKm } from './routing.js'

/**
 * A stand-in road network speaking OSRM's table protocol (10 m/s over great-circle distance). Each
 * table request waits for `hold` first: the planning search runs between its two transactions, and
 * the matrix is asked for in between, so this is where a test changes the day or lets a second
 * request catch up.
 */
let hold: () => Promise<void> = async () => {}
const tables: string[] = []
let server: Server
const env: Record<string, string> = {}
beforeAll(async () => {
  server = createServer((request, response) => {
    const coordinates = (request.url ?? '').split('/table/v1/driving/')[1]?.split('?')[0] ?? ''
    const points = coordinates.split(';').map((pair) => {
      const [longitude, latitude] = pair.split(',').map(Number)
      return { latitude: latitude ?? 0, longitude: longitude ?? 0 }
    })
    tables.push(coordinates)
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
const DEPOT = { latitude: -33.92, longitude: 18.42 }

async function vanAndDay(day: string) {
  const { core } = owner
  const van = (await post(core, '/api/v1/vehicles', { registration: `R${day}`, name: day })).json().data
  const shipments = [
    await shipment(core, -33.9, 18.45, { scheduledDate: `${day}T08:00:00Z` }),
    await shipment(core, -33.95, 18.4, { scheduledDate: `${day}T08:00:00Z` }),
  ]
  return { van: van.id as string, shipments }
}

const planOf = async (id: string) =>
  ((await owner.core({ url: `/api/v1/shipments/${id}` })).json().data as { deliveryPlanId: string | null })
    .deliveryPlanId

describe('planning a day while it changes', () => {
  it('answers 409 plan_day_changed and writes nothing when a shipment changed during the search', async () => {
    const day = '2026-12-05'
    const { van, shipments } = await vanAndDay(day)
    const [first] = shipments
    hold = async () => {
      hold = async () => {}
      const moved = await owner.core({
        method: 'PUT',
        url: `/api/v1/shipments/${first?.id}`,
        payload: {
          deliveryAddress: { fullAddress: 'moved', latitude: -33.91, longitude: 18.46 },
          weight: 10,
          scheduledDate: `${day}T08:00:00Z`,
        },
      })
      expect(moved.statusCode, moved.body).toBe(200)
    }
    const before = tables.length
    const changed = await post(owner.core, `${PLANS}/plan-day`, {
      date: day,
      depot: DEPOT,
      vehicleIds: [van],
    })
    expect(changed.statusCode, changed.body).toBe(409)
    expect(changed.json().code).toBe('plan_day_changed')
    expect(tables.length).toBe(before + 1)
    for (const s of shipments) expect(await planOf(s.id)).toBeNull()
    // Planned again, the day as it now is goes through, on the road network's times.
    const again = await post(owner.core, `${PLANS}/plan-day`, { date: day, depot: DEPOT, vehicleIds: [van] })
    expect(again.statusCode, again.body).toBe(200)
    const [plan] = again.json().data.plans
    expect(plan.stops).toHaveLength(2)
    for (const s of shipments) expect(await planOf(s.id)).toBe(plan.deliveryPlanId)
  })

  it('lets one of two plannings of the same day write, the other answering 409', async () => {
    const day = '2026-12-06'
    const { van, shipments } = await vanAndDay(day)
    // Both requests have read the day before either writes: neither matrix is answered until both asked.
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
    const body = { date: day, depot: DEPOT, vehicleIds: [van] }
    const answers = await Promise.all([1, 2].map(() => post(owner.core, `${PLANS}/plan-day`, body)))
    hold = async () => {}
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.statusCode === 409)?.json().code).toBe('plan_day_changed')
    const winner = answers.find((a) => a.statusCode === 200)?.json().data.plans[0].deliveryPlanId
    for (const s of shipments) expect(await planOf(s.id)).toBe(winner)
  })
})
