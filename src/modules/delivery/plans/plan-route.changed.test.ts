import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { post } from '../delivery.fixtures.js'
import { square } from '../zones/zones.fixtures.js'
import { PLANS, plan, shipment } from './plans.fixtures.js'
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
