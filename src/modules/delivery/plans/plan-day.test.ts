import { describe, expect, it } from 'vitest'
import { useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post } from '../delivery.fixtures.js'
import { DAY, PLANS, shipment } from './plans.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const DEPOT = { latitude: -33.92, longitude: 18.42 }

interface PlanDay {
  plans: {
    deliveryPlanId: string
    code: string
    vehicleId: string
    distanceKm: number
    stops: { shipmentId: string; code: string; stopSequence: number; plannedArrival: string }[]
  }[]
  leftOut: { shipmentId: string; code: string; reason: string }[]
}

async function day() {
  const setup = await deliverySetup(ctx)
  const { core } = setup
  const van = async (registration: string) => {
    const response = await post(core, '/api/v1/vehicles', { registration, name: registration, maxWeight: 45 })
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data.id as string
  }
  const vans = [await van('VAN1'), await van('VAN2')]
  // Two clusters, east and west of the depot, four 10 kg parcels each: a van takes 45 kg, one cluster.
  const east = []
  const west = []
  for (let i = 0; i < 4; i++) east.push(await shipment(core, -33.9 + i * 0.01, 18.6 + i * 0.01))
  for (let i = 0; i < 4; i++) west.push(await shipment(core, -33.95 - i * 0.01, 18.3 - i * 0.01))
  const heavy = await shipment(core, -33.93, 18.45, { weight: 100 })
  const nowhere = await shipment(core, 0, 0, { deliveryAddress: { fullAddress: 'unknown' } })
  return { ...setup, vans, east, west, heavy, nowhere }
}

describe('planning a day across the fleet', () => {
  it('plans each van’s stops in order with arrival times, and says what was left out and why', async () => {
    const s = await day()
    const response = await post(s.key, `${PLANS}/plan-day`, { date: DAY, depot: DEPOT })
    expect(response.statusCode, response.body).toBe(200)
    const result = response.json().data as PlanDay
    expect(result.leftOut).toEqual(
      [
        { shipmentId: s.heavy.id, code: s.heavy.code, reason: 'capacity' },
        { shipmentId: s.nowhere.id, code: s.nowhere.code, reason: 'noLocation' },
      ].sort((a, b) => a.code.localeCompare(b.code)),
    )
    expect(result.plans).toHaveLength(2)
    expect(new Set(result.plans.map((p) => p.vehicleId))).toEqual(new Set(s.vans))
    // Each van serves one cluster whole.
    const clusters = result.plans.map((p) => p.stops.map((stop) => stop.shipmentId).sort())
    expect(clusters.sort()).toEqual([s.east.map((x) => x.id).sort(), s.west.map((x) => x.id).sort()].sort())
    for (const p of result.plans) {
      const times = p.stops.map((stop) => Date.parse(stop.plannedArrival))
      expect(times).toEqual([...times].sort((a, b) => a - b))
      expect(times[0]).toBeGreaterThanOrEqual(Date.parse(`${DAY}T08:00:00Z`))
      expect(p.distanceKm).toBeGreaterThan(0)
      // The plan itself shows the same stops in the same order, assigned.
      const stored = (await s.core({ url: `${PLANS}/${p.deliveryPlanId}` })).json().data
      expect(stored.vehicleId).toBe(p.vehicleId)
      expect(stored.status).toBe('Draft')
      expect(stored.shipments.map((x: { id: string }) => x.id)).toEqual(
        p.stops.map((stop) => stop.shipmentId),
      )
      expect(stored.shipments.every((x: { status: string }) => x.status === 'Assigned')).toBe(true)
    }
  })

  it('fills the same plans again, keeping their stops, when a late shipment comes in', async () => {
    const s = await day()
    const first = (
      await post(s.key, `${PLANS}/plan-day`, { date: DAY, depot: DEPOT, vehicleIds: [s.vans[0]] })
    ).json().data as PlanDay
    expect(first.plans).toHaveLength(1)
    const before = first.plans[0]?.stops.map((stop) => stop.shipmentId) ?? []
    const late = await shipment(s.core, -33.9, 18.605, { weight: 1 })
    const second = await post(s.key, `${PLANS}/plan-day`, {
      date: DAY,
      depot: DEPOT,
      vehicleIds: [s.vans[0]],
    })
    expect(second.statusCode, second.body).toBe(200)
    const again = second.json().data as PlanDay
    expect(again.plans.map((p) => p.deliveryPlanId)).toEqual([first.plans[0]?.deliveryPlanId])
    const after = again.plans[0]?.stops.map((stop) => stop.shipmentId) ?? []
    expect(after.filter((id) => id !== late.id)).toEqual(before)
    expect(after).toContain(late.id)
    expect(again.plans[0]?.stops.map((stop) => stop.stopSequence)).toEqual(after.map((_, i) => i + 1))
  })

  it('refuses bad input naming the field, another business’s vehicle, and a member without the right', async () => {
    const s = await day()
    const bad = async (body: object, field: string) => {
      const response = await post(s.key, `${PLANS}/plan-day`, body)
      expect(response.statusCode, response.body).toBe(400)
      expect(JSON.stringify(response.json())).toContain(field)
    }
    await bad({ date: 'tomorrow' }, 'date')
    await bad({ date: DAY, vehicleIds: ['not-a-uuid'] }, 'vehicleIds')
    await bad({ date: DAY, serviceMinutes: 1e9 }, 'serviceMinutes')
    await bad({ date: DAY, shiftStart: '10:00', shiftEnd: '09:00' }, 'shiftEnd')
    await bad({ date: `${DAY}\u0000` }, 'date')
    const other = await deliverySetup(ctx, undefined, 'another')
    const theirs = await post(other.core, '/api/v1/vehicles', {
      registration: 'X1',
      name: 'X1',
      maxWeight: 10,
    })
    await bad({ date: DAY, vehicleIds: [theirs.json().data.id] }, 'vehicleIds.0')
    const unauthenticated = await ctx.core.inject({
      method: 'POST',
      url: `${PLANS}/plan-day`,
      payload: { date: DAY },
    })
    expect(unauthenticated.statusCode).toBe(401)
    const scoped = await post(s.scoped, `${PLANS}/plan-day`, { date: DAY })
    expect(scoped.statusCode).toBe(403)
  })
})
