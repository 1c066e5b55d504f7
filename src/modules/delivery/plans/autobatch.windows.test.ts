import { describe, expect, it } from 'vitest'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { post } from '../delivery.fixtures.js'
import { square } from '../zones/zones.fixtures.js'
import { PLANS, plan, shipment } from './plans.fixtures.js'
import { greatCircleKm } from './routing.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)
const HOME = { latitude: -33.95, longitude: 18.47 }

interface Stop {
  id: string
  code: string
  stopSequence: number
  plannedArrival: string | null
  plannedDeparture: string | null
}
interface Message {
  code: string
  level: string
  title: string
  message: string
}

async function vehicle(core: Core, body: object = {}) {
  const registration = `W${Math.random().toString(36).slice(2, 8)}`
  const response = await post(core, '/api/v1/vehicles', { registration, name: registration, ...body })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: string }
}

/** A shipment of `day` at a point, delivered within the windows given as hh:mm pairs (UTC, the business's zone). */
const windowed = (core: Core, day: string, at: [number, number], windows: [string, string][], extra = {}) =>
  shipment(core, at[0], at[1], {
    scheduledDate: `${day}T08:00:00Z`,
    deliveryWindows: windows.map(([start, end]) => ({
      start: `${day}T${start}:00Z`,
      end: `${day}T${end}:00Z`,
    })),
    ...extra,
  })

async function autobatch(core: Core, planId: string) {
  const response = await post(core, `${PLANS}/${planId}/autobatch`)
  expect(response.statusCode, response.body).toBe(200)
  expect(response.json().data).toBe(true)
  return response.json().messages as Message[]
}

const stopsOf = async (core: Core, planId: string) =>
  (await core({ url: `${PLANS}/${planId}` })).json().data as {
    shipments: Stop[]
    totals: { distanceKm: number }
  }

const ms = (iso: string | null) => Date.parse(iso ?? '')

describe('autobatch on the planning engine', () => {
  it('honours windows, service times and the vehicle’s shift and home, stores planned times, and says why it left a shipment out', async () => {
    const { core } = owner
    const day = '2026-12-08'
    await post(core, '/api/v1/DeliveryZones', {
      name: `Windows ${day}`,
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    const van = await vehicle(core, {
      shiftStart: '09:00',
      shiftEnd: '17:00',
      startLocation: HOME,
      maxWeight: 100,
    })
    // The near stop may only begin in the afternoon, the far one only in the morning: far first,
    // though the other way round is shorter.
    const near = await windowed(core, day, [-33.94, 18.46], [['14:00', '15:00']], { serviceMinutes: 20 })
    const far = await windowed(core, day, [-33.8, 18.6], [['09:30', '10:30']])
    const early = await windowed(core, day, [-33.96, 18.48], [['05:00', '06:00']])
    const late = await windowed(core, day, [-33.95, 18.46], [['17:30', '19:00']])
    const p = await plan(core, { scheduledDate: day, vehicleId: van.id })

    const messages = await autobatch(core, p.id)
    expect(messages.map((m) => [m.code, m.title])).toEqual(
      [
        ['autobatch_outside_windows', `Shipment ${early.code} left out`],
        ['autobatch_outside_shift', `Shipment ${late.code} left out`],
      ].sort((a, b) => (a[1] as string).localeCompare(b[1] as string)),
    )
    const { shipments, totals } = await stopsOf(core, p.id)
    expect(shipments.map((s) => s.id)).toEqual([far.id, near.id])
    const [first, second] = shipments
    const km = (a: { latitude: number; longitude: number }, b: [number, number]) =>
      greatCircleKm(a, { latitude: b[0], longitude: b[1] })
    // The van leaves home at 09:00, its shift's start, and drives at the default 30 km/h.
    const drive = (km(HOME, [-33.8, 18.6]) / 30) * 3_600_000
    expect(ms(first?.plannedArrival ?? null) - ms(`${day}T09:00:00Z`)).toBeCloseTo(drive, -3)
    expect(ms(second?.plannedArrival ?? null)).toBeGreaterThanOrEqual(ms(`${day}T14:00:00Z`))
    expect(ms(second?.plannedArrival ?? null)).toBeLessThanOrEqual(ms(`${day}T15:00:00Z`))
    // The business's default 5 minutes where the shipment says nothing, its own 20 where it does.
    expect(ms(first?.plannedDeparture ?? null) - ms(first?.plannedArrival ?? null)).toBe(5 * 60_000)
    expect(ms(second?.plannedDeparture ?? null) - ms(second?.plannedArrival ?? null)).toBe(20 * 60_000)
    // From the van's home, round the two stops and home again (it has no end location of its own).
    const loop =
      km(HOME, [-33.8, 18.6]) +
      km({ latitude: -33.8, longitude: 18.6 }, [-33.94, 18.46]) +
      km(HOME, [-33.94, 18.46])
    expect(totals.distanceKm).toBeCloseTo(loop, 2)
    const read = (await core({ url: `/api/v1/shipments/${near.id}` })).json().data
    expect(read).toMatchObject({ plannedArrival: second?.plannedArrival, stopSequence: 2 })
    for (const out of [early, late]) {
      expect((await core({ url: `/api/v1/shipments/${out.id}` })).json().data).toMatchObject({
        deliveryPlanId: null,
        plannedArrival: null,
      })
    }
    // Run again: the same route and times.
    await autobatch(core, p.id)
    const timesOf = (stops: Stop[]) =>
      stops.map((x) => [x.id, x.stopSequence, x.plannedArrival, x.plannedDeparture])
    expect(timesOf((await stopsOf(core, p.id)).shipments)).toEqual(timesOf(shipments))
  })

  it('keeps a shipment put on the plan by hand whose window it cannot meet, last and without times', async () => {
    const { core } = owner
    const day = '2026-12-09'
    await post(core, '/api/v1/DeliveryZones', {
      name: `Kept ${day}`,
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    // A plan without a vehicle: no capacity limit, 08:00-18:00, from its depot, ending at its last stop.
    const depot = { fullAddress: 'Depot', latitude: -33.92, longitude: 18.42 }
    const night = await windowed(core, day, [-33.93, 18.43], [['21:00', '22:00']])
    const p = await plan(core, { scheduledDate: day, depot, shipmentIds: [night.id] })
    const morning = await windowed(core, day, [-33.9, 18.45], [['08:30', '09:00']])
    const noon = await windowed(core, day, [-33.91, 18.44], [['12:00', '12:30']])

    const messages = await autobatch(core, p.id)
    expect(messages.map((m) => [m.code, m.level])).toEqual([['autobatch_stop_not_routed', 'Info']])
    expect(messages[0]?.message).toContain(
      `Shipment ${night.code} is on the plan but cannot be reached within its delivery windows during the vehicle's shift`,
    )
    const { shipments, totals } = await stopsOf(core, p.id)
    expect(shipments.map((s) => [s.id, s.stopSequence])).toEqual([
      [morning.id, 1],
      [noon.id, 2],
      [night.id, 3],
    ])
    expect(shipments[0]?.plannedArrival).toBe(`${day}T08:30:00.000Z`)
    expect(shipments[1]?.plannedArrival).toBe(`${day}T12:00:00.000Z`)
    expect(shipments[2]).toMatchObject({ plannedArrival: null, plannedDeparture: null })
    const open =
      greatCircleKm(depot, { latitude: -33.9, longitude: 18.45 }) +
      greatCircleKm({ latitude: -33.9, longitude: 18.45 }, { latitude: -33.91, longitude: 18.44 })
    expect(totals.distanceKm).toBeCloseTo(open, 2)
  })

  it('never drops a shipment already on the plan for more new ones, even when the new ones would serve more', async () => {
    const { core } = owner
    const day = '2026-12-16'
    await post(core, '/api/v1/DeliveryZones', {
      name: `Own ${day}`,
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    const van = await vehicle(core, { maxWeight: 25 })
    const mine = await shipment(core, -33.93, 18.43, { scheduledDate: `${day}T08:00:00Z`, weight: 20 })
    const p = await plan(core, {
      scheduledDate: day,
      vehicleId: van.id,
      depot: { fullAddress: 'Depot', latitude: -33.92, longitude: 18.42 },
      shipmentIds: [mine.id],
    })
    // Two new 10 kg shipments would be two stops instead of one: they stay off the plan instead.
    const one = await shipment(core, -33.91, 18.44, { scheduledDate: `${day}T08:00:00Z` })
    const two = await shipment(core, -33.9, 18.45, { scheduledDate: `${day}T08:00:00Z` })
    const messages = await autobatch(core, p.id)
    expect(messages.map((m) => [m.code, m.title])).toEqual(
      [one, two]
        .map((s) => ['autobatch_over_capacity', `Shipment ${s.code} left out`])
        .sort((a, b) => (a[1] as string).localeCompare(b[1] as string)),
    )
    expect(messages[0]?.message).toContain('would take the load to 30 kg of 25 kg')
    const { shipments } = await stopsOf(core, p.id)
    expect(shipments.map((s) => [s.id, s.stopSequence])).toEqual([[mine.id, 1]])
    expect(shipments[0]?.plannedArrival).not.toBeNull()
  })
})
