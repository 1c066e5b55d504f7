import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { post, put } from '../delivery.fixtures.js'
import { PLANS, shipment } from './plans.fixtures.js'
import { greatCircleKm } from './routing.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)
const DEPOT = { latitude: -33.92, longitude: 18.42 }

interface PlannedStop {
  shipmentId: string
  stopSequence: number
  plannedArrival: string
  plannedDeparture: string
}
interface DayPlan {
  deliveryPlanId: string
  vehicleId: string
  startsAt: string
  endsAt: string
  stops: PlannedStop[]
  breaks: { start: string; end: string; afterStopSequence: number }[]
}
interface PlanDay {
  plans: DayPlan[]
  leftOut: { shipmentId: string; code: string; reason: string }[]
}

async function vehicle(core: Core, body: object = {}) {
  const registration = `V${Math.random().toString(36).slice(2, 8)}`
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

async function planDay(core: Core, body: object) {
  const response = await post(core, `${PLANS}/plan-day`, body)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as PlanDay
}

const ms = (iso: string) => Date.parse(iso)

describe('planning a day with delivery windows, shifts and breaks', () => {
  it('orders stops by their windows, begins each inside its window, and leaves out one too early for the shift', async () => {
    const day = '2026-12-02'
    const { core } = owner
    const speed = await core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'delivery.averageSpeedKmh': '60' },
    })
    expect(speed.statusCode, speed.body).toBe(200)
    const van = await vehicle(core, { maxWeight: 100 })
    const nearPoint: [number, number] = [-33.93, 18.43]
    const farPoint: [number, number] = [-33.8, 18.6]
    // The near stop may only begin in the afternoon (its first window is before the shift) and the
    // far one only in the morning: far first, though the other way round is no longer.
    const near = await windowed(
      core,
      day,
      nearPoint,
      [
        ['06:00', '07:00'],
        ['14:00', '15:00'],
      ],
      { serviceMinutes: 20 },
    )
    const far = await windowed(core, day, farPoint, [['09:00', '10:00']])
    const early = await windowed(core, day, [-33.91, 18.41], [['05:00', '06:00']])
    const result = await planDay(core, { date: day, depot: DEPOT, vehicleIds: [van.id], serviceMinutes: 10 })

    expect(result.leftOut).toEqual([{ shipmentId: early.id, code: early.code, reason: 'window' }])
    const [plan] = result.plans
    expect(plan?.stops.map((s) => s.shipmentId)).toEqual([far.id, near.id])
    const [first, second] = plan?.stops ?? []
    expect(first?.plannedArrival).toBe(`${day}T09:00:00.000Z`)
    expect(ms(second?.plannedArrival ?? '')).toBeGreaterThanOrEqual(ms(`${day}T14:00:00Z`))
    expect(ms(second?.plannedArrival ?? '')).toBeLessThanOrEqual(ms(`${day}T15:00:00Z`))
    // Service: the request's 10 minutes where the shipment says nothing, its own 20 where it does.
    expect(ms(first?.plannedDeparture ?? '') - ms(first?.plannedArrival ?? '')).toBe(10 * 60_000)
    expect(ms(second?.plannedDeparture ?? '') - ms(second?.plannedArrival ?? '')).toBe(20 * 60_000)
    // The van leaves just in time for 09:00, driving at the business's 60 km/h.
    const drive = (greatCircleKm(DEPOT, { latitude: farPoint[0], longitude: farPoint[1] }) / 60) * 3_600_000
    expect(ms(`${day}T09:00:00Z`) - ms(plan?.startsAt ?? '')).toBeCloseTo(drive, -3)
    expect(ms(plan?.endsAt ?? '')).toBeGreaterThan(ms(second?.plannedDeparture ?? ''))

    // The plan and the shipment show the planned times stored on the stops.
    const stored = (await core({ url: `${PLANS}/${plan?.deliveryPlanId}` })).json().data
    expect(
      stored.shipments.map((s: { id: string; plannedArrival: string; plannedDeparture: string }) => [
        s.id,
        s.plannedArrival,
        s.plannedDeparture,
      ]),
    ).toEqual(plan?.stops.map((s) => [s.shipmentId, s.plannedArrival, s.plannedDeparture]))
    const read = (await core({ url: `/api/v1/shipments/${near.id}` })).json().data
    expect(read).toMatchObject({
      deliveryWindows: [
        { start: `${day}T06:00:00.000Z`, end: `${day}T07:00:00.000Z` },
        { start: `${day}T14:00:00.000Z`, end: `${day}T15:00:00.000Z` },
      ],
      serviceMinutes: 20,
      plannedArrival: second?.plannedArrival,
      stopSequence: 2,
    })
    const unplanned = (await core({ url: `/api/v1/shipments/${early.id}` })).json().data
    expect(unplanned).toMatchObject({ plannedArrival: null, plannedDeparture: null, deliveryPlanId: null })

    // Taking a stop off the plan clears its planned times.
    const removed = await core({
      method: 'DELETE',
      url: `${PLANS}/${plan?.deliveryPlanId}/shipments/${far.id}`,
    })
    expect(removed.statusCode, removed.body).toBe(200)
    expect((await core({ url: `/api/v1/shipments/${far.id}` })).json().data).toMatchObject({
      plannedArrival: null,
      plannedDeparture: null,
    })
  })

  it('uses the vehicle’s own shift, start location and break', async () => {
    const day = '2026-12-03'
    const { core } = owner
    const home = { latitude: -33.95, longitude: 18.47 }
    const van = await vehicle(core, {
      shiftStart: '09:00',
      shiftEnd: '17:00',
      startLocation: home,
      breaks: [{ earliest: '12:00', latest: '12:30', durationMinutes: 30 }],
    })
    const one = await windowed(core, day, [-33.94, 18.46], [['13:00', '14:00']])
    const two = await windowed(core, day, [-33.96, 18.48], [['13:30', '15:00']])
    // An evening window the van could wait for, but its shift (not the request's) ends before it.
    const late = await windowed(core, day, [-33.95, 18.46], [['17:30', '19:00']])
    const result = await planDay(core, {
      date: day,
      vehicleIds: [van.id],
      shiftStart: '06:00',
      shiftEnd: '20:00',
    })

    expect(result.leftOut).toEqual([{ shipmentId: late.id, code: late.code, reason: 'shift' }])
    const [plan] = result.plans
    expect(plan?.stops.map((s) => s.shipmentId).sort()).toEqual([one.id, two.id].sort())
    expect(plan?.startsAt).toBe(`${day}T09:00:00.000Z`)
    // The break is taken while waiting for the first window to open.
    expect(plan?.breaks).toEqual([
      { start: `${day}T12:00:00.000Z`, end: `${day}T12:30:00.000Z`, afterStopSequence: 0 },
    ])
    const stored = (await core({ url: `${PLANS}/${plan?.deliveryPlanId}` })).json().data
    expect(stored.depot).toMatchObject(home)
  })

  it('refuses bad windows, shifts, breaks and settings with 400 naming the field', async () => {
    const { core } = owner
    const day = '2026-12-04'
    const window = (start: string, end: string) => ({
      start: `${day}T${start}:00Z`,
      end: `${day}T${end}:00Z`,
    })
    const badShipment = async (extra: object, fields: string[]) => {
      const response = await post(core, '/api/v1/shipments', { scheduledDate: `${day}T08:00:00Z`, ...extra })
      expect(response.statusCode, response.body).toBe(400)
      expect(fieldsOf(response)).toEqual(fields)
    }
    await badShipment({ deliveryWindows: [window('10:00', '09:00')] }, ['deliveryWindows.0.end'])
    await badShipment({ deliveryWindows: [window('09:00', '11:00'), window('10:00', '12:00')] }, [
      'deliveryWindows.1.start',
    ])
    await badShipment({ deliveryWindows: [{ start: '1960-01-01T09:00:00Z', end: `${day}T09:00:00Z` }] }, [
      'deliveryWindows.0.start',
    ])
    const five = ['08', '09', '10', '11', '12'].map((h) => window(`${h}:00`, `${h}:30`))
    expect(fieldsOf(await post(core, '/api/v1/shipments', { deliveryWindows: five }))).toEqual([
      'deliveryWindows',
    ])
    expect(fieldsOf(await post(core, '/api/v1/shipments', { serviceMinutes: -1 }))).toEqual([
      'serviceMinutes',
    ])

    const badVehicle = async (extra: object, fields: string[]) => {
      const response = await post(core, '/api/v1/vehicles', { registration: 'BAD1', name: 'Bad', ...extra })
      expect(response.statusCode, response.body).toBe(400)
      expect(fieldsOf(response)).toEqual(fields)
    }
    await badVehicle({ shiftStart: '08:00' }, ['shiftEnd'])
    await badVehicle({ shiftStart: '10:00', shiftEnd: '09:00' }, ['shiftEnd'])
    await badVehicle({ shiftStart: '25:00', shiftEnd: '26:00' }, ['shiftStart', 'shiftEnd'])
    await badVehicle({ breaks: [{ earliest: '13:00', latest: '12:00', durationMinutes: 30 }] }, [
      'breaks.0.latest',
    ])
    await badVehicle(
      {
        shiftStart: '09:00',
        shiftEnd: '17:00',
        breaks: [
          { earliest: '08:00', latest: '12:00', durationMinutes: 30 },
          { earliest: '15:00', latest: '16:45', durationMinutes: 30 },
        ],
      },
      ['breaks.0.earliest', 'breaks.1.latest'],
    )
    await badVehicle({ startLocation: { latitude: 100, longitude: 0 } }, ['startLocation.latitude'])
    // A replaced vehicle is checked the same way.
    const van = await vehicle(core)
    const replaced = await put(core, `/api/v1/vehicles/${van.id}`, {
      registration: 'OK1',
      name: 'Ok',
      shiftEnd: '17:00',
    })
    expect(fieldsOf(replaced)).toEqual(['shiftStart'])

    const setting = await core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'delivery.averageSpeedKmh': '0', 'delivery.defaultServiceMinutes': 'soon' },
    })
    expect(setting.statusCode).toBe(400)
    expect(fieldsOf(setting).sort()).toEqual(['delivery.averageSpeedKmh', 'delivery.defaultServiceMinutes'])
  })
})
