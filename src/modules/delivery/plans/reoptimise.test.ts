import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { type Core, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { wallClockText } from '../local-time.js'
import { movePlan, PLANS, plan, shipment } from './plans.fixtures.js'
import { greatCircleKm, type Point } from './routing.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)
const other = useOwnerSession(ctx)
const DEPOT = { fullAddress: 'Depot', latitude: -33.92, longitude: 18.42 }

interface Stop {
  id: string
  code: string
  status: string
  stopSequence: number
  plannedArrival: string | null
  plannedDeparture: string | null
  deliveryAddress: Point
}
interface Plan {
  id: string
  code: string
  shipments: Stop[]
  totals: { distanceKm: number }
}

async function reoptimise(core: Core, id: string) {
  const response = await post(core, `${PLANS}/${id}/reoptimise`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { data: Plan; messages: { code: string; level: string; message: string }[] }
}

const at = (p: [number, number]): Point => ({ latitude: p[0], longitude: p[1] })
/** Driving time at the default 30 km/h, in ms. */
const drive = (a: Point, b: Point) => (greatCircleKm(a, b) / 30) * 3_600_000
const ms = (iso: string | null) => Date.parse(iso ?? '')

describe('re-optimising a plan', () => {
  it('re-orders a Scheduled plan’s stops by their windows, stores their times, and gives the same plan again', async () => {
    // Added in the wrong order; each window allows one order only.
    const { core } = owner
    const day = '2026-12-11'
    const window = (start: string, end: string) => [
      { start: `${day}T${start}:00Z`, end: `${day}T${end}:00Z` },
    ]
    const late = await shipment(core, -33.93, 18.43, {
      scheduledDate: `${day}T08:00:00Z`,
      deliveryWindows: window('15:00', '16:00'),
    })
    const early = await shipment(core, -33.9, 18.47, {
      scheduledDate: `${day}T08:00:00Z`,
      deliveryWindows: window('09:00', '10:00'),
    })
    const free = await shipment(core, -33.91, 18.45, {
      scheduledDate: `${day}T08:00:00Z`,
      deliveryWindows: window('11:00', '12:00'),
    })
    const p = await plan(core, {
      scheduledDate: day,
      depot: DEPOT,
      shipmentIds: [late.id, early.id, free.id],
    })
    expect((await movePlan(core, p.id, 'schedule')).statusCode).toBe(200)

    const { data, messages } = await reoptimise(core, p.id)
    expect(messages).toEqual([])
    expect(data.shipments.map((s) => [s.id, s.stopSequence])).toEqual([
      [early.id, 1],
      [free.id, 2],
      [late.id, 3],
    ])
    const [first, second, third] = data.shipments
    expect(first?.plannedArrival).toBe(`${day}T09:00:00.000Z`)
    expect(second?.plannedArrival).toBe(`${day}T11:00:00.000Z`)
    expect(third?.plannedArrival).toBe(`${day}T15:00:00.000Z`)
    // The plan has no vehicle: the route ends at its last stop.
    const km =
      greatCircleKm(DEPOT, at([-33.9, 18.47])) + greatCircleKm(at([-33.9, 18.47]), at([-33.91, 18.45]))
    expect(data.totals.distanceKm).toBeCloseTo(
      km + greatCircleKm(at([-33.91, 18.45]), at([-33.93, 18.43])),
      2,
    )
    const times = (stops: Stop[]) =>
      stops.map((s) => [s.id, s.stopSequence, s.plannedArrival, s.plannedDeparture])
    expect(times((await reoptimise(core, p.id)).data.shipments)).toEqual(times(data.shipments))
  })

  it('keeps visited stops in place on a Dispatched plan and plans the rest from the last one, and tells the customer', async () => {
    const s = await deliverySetup(ctx)
    const { core } = s
    // A time zone where it is about noon now, so the day's shift is under way whenever the test runs.
    const hourIn = (z: string) => Number(wallClockText(new Date(), z).slice(11, 13))
    const zone = Intl.supportedValuesOf('timeZone').find((z) => hourIn(z) >= 10 && hourIn(z) < 14) ?? 'UTC'
    const today = wallClockText(new Date(), zone).slice(0, 10)
    const moved = await put(core, `/api/business/${s.org.businessId}`, {
      registeredName: 'Noon Deliveries',
      displayName: 'Noon Deliveries',
      timezone: zone,
    })
    expect(moved.statusCode, moved.body).toBe(200)
    const hook = await post(core, '/api/v1/webhooks/endpoints', {
      url: 'https://hooks.example.com/cartage',
      eventTypes: ['delivery_plan.reoptimised'],
    })
    expect(hook.statusCode, hook.body).toBe(200)
    const van = (
      await post(core, '/api/v1/vehicles', {
        registration: 'NOON1',
        name: 'Van',
        shiftStart: '00:00',
        shiftEnd: '23:59',
      })
    ).json().data
    const points: [number, number][] = [
      [-33.91, 18.43],
      [-33.95, 18.47],
      [-33.9, 18.44],
      [-33.97, 18.49],
    ]
    const stops = []
    for (const p of points)
      stops.push(await shipment(core, p[0], p[1], { scheduledDate: `${today}T10:00:00Z` }))
    // A window that closed early this morning: no route reaches it now.
    const missed = await shipment(core, -33.92, 18.45, {
      scheduledDate: `${today}T10:00:00Z`,
      deliveryWindows: [
        {
          start: new Date(Date.now() - 6 * 3_600_000).toISOString(),
          end: new Date(Date.now() - 5 * 3_600_000).toISOString(),
        },
      ],
    })
    const [a, b, c, d] = stops as [(typeof stops)[0], (typeof stops)[0], (typeof stops)[0], (typeof stops)[0]]
    const p = await plan(core, {
      scheduledDate: today,
      vehicleId: van.id,
      depot: DEPOT,
      shipmentIds: [a.id, b.id, c.id, d.id, missed.id],
    })
    for (const move of ['schedule', 'dispatch'])
      expect((await movePlan(core, p.id, move)).statusCode).toBe(200)
    // a is delivered (marked on the shipment, no stop report), then the driver reports arriving at c
    // (out of order); b and d are still to come.
    const delivered = await post(core, `/api/v1/shipments/${a.id}/deliver`)
    expect(delivered.statusCode, delivered.body).toBe(200)
    const arrived = await post(core, `/api/v1/shipments/${c.id}/stop/arrived`)
    expect(arrived.statusCode, arrived.body).toBe(200)
    const arrivedAt = ms(arrived.json().data.operations.at(-1).occurredAt)

    const { data, messages } = await reoptimise(core, p.id)
    expect(data.shipments.map((x) => [x.id, x.stopSequence])).toEqual([
      [a.id, 1],
      [c.id, 2],
      [b.id, 3],
      [d.id, 4],
      [missed.id, 5],
    ])
    expect(messages.map((m) => [m.code, m.level])).toEqual([['reoptimise_stop_not_routed', 'Warning']])
    expect(messages[0]?.message).toContain(
      `Shipment ${missed.code} cannot be reached within any of its delivery windows`,
    )
    // From c, once its 5 minutes there are over.
    const [, , first, second, last] = data.shipments
    expect(ms(first?.plannedArrival ?? null) - (arrivedAt + 5 * 60_000)).toBeCloseTo(
      drive(at(points[2]!), at(points[1]!)),
      -3,
    )
    expect(ms(second?.plannedArrival ?? null)).toBeGreaterThan(ms(first?.plannedDeparture ?? null))
    expect(last).toMatchObject({ plannedArrival: null, plannedDeparture: null })
    const driven = greatCircleKm(DEPOT, at(points[0]!)) + greatCircleKm(at(points[0]!), at(points[2]!))
    const ahead =
      greatCircleKm(at(points[2]!), at(points[1]!)) + greatCircleKm(at(points[1]!), at(points[3]!))
    expect(data.totals.distanceKm).toBeCloseTo(driven + ahead, 2)

    // The customer's tracking page shows the new arrival, in the business's time zone.
    const link = await post(core, `/api/v1/shipments/${b.id}/tracking-link`)
    const token = /\/api\/v1\/track\/([A-Za-z0-9_-]+)/.exec(link.json().data.url)?.[1]
    const page = await ctx.core.inject({ url: `/api/v1/track/${token}`, headers: { accept: 'text/html' } })
    expect(page.body).toContain(
      `Planned arrival: <span class="window">${wallClockText(new Date(first?.plannedArrival ?? ''), zone)}</span>`,
    )
    // The webhook carries each open stop's new arrival; the business's users are told.
    const events = (await core({ url: '/api/v1/webhooks/events' })).json().data
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'delivery_plan.reoptimised',
      resource: `deliveryPlanId:${p.id}`,
      data: {
        deliveryPlanId: p.id,
        code: p.code,
        kept: 2,
        stops: [
          { shipmentId: b.id, code: b.code, stopSequence: 3, plannedArrival: first?.plannedArrival },
          { shipmentId: d.id, code: d.code, stopSequence: 4, plannedArrival: second?.plannedArrival },
          { shipmentId: missed.id, code: missed.code, stopSequence: 5, plannedArrival: null },
        ],
      },
    })
    const notes = (await core({ url: '/api/notifications/user?PageSize=100' })).json().data as {
      title: string
      message: string
    }[]
    expect(notes.find((n) => n.title === 'Delivery plan re-optimised')?.message).toBe(
      `Plan ${p.code} re-optimised: 3 open stop(s) re-ordered, 2 kept in place, 1 without a planned arrival (no route reaches them in time).`,
    )
  })

  it('answers 404 for another organisation’s plan, 409 for a Completed or Cancelled one, 403 without Modify', async () => {
    const s = await deliverySetup(ctx)
    const draft = await plan(s.core, { depot: DEPOT, shipmentIds: [(await shipment(s.core)).id] })
    expect((await reoptimise(s.key, draft.id)).data.shipments[0]?.plannedArrival).not.toBeNull()
    for (const core of [s.member, s.scoped]) {
      const refused = await post(core, `${PLANS}/${draft.id}/reoptimise`)
      expect(refused.statusCode).toBe(403)
    }
    for (const id of [draft.id, randomUUID()]) {
      const hidden = await post(other.core, `${PLANS}/${id}/reoptimise`)
      expect(hidden.statusCode).toBe(404)
      expect(hidden.json().code).toBe('delivery_plan_not_found')
    }
    expect((await post(s.core, `${PLANS}/not-a-uuid/reoptimise`)).statusCode).toBe(400)

    const cancelled = await plan(s.core, { shipmentIds: [(await shipment(s.core)).id] })
    await movePlan(s.core, cancelled.id, 'cancel')
    const done = await plan(s.core, { shipmentIds: [(await shipment(s.core)).id] })
    for (const move of ['schedule', 'dispatch']) await movePlan(s.core, done.id, move)
    const only = (await s.core({ url: `${PLANS}/${done.id}` })).json().data.shipments[0]
    expect((await post(s.core, `/api/v1/shipments/${only.id}/deliver`)).statusCode).toBe(200)
    expect((await movePlan(s.core, done.id, 'complete')).statusCode).toBe(200)
    for (const closed of [cancelled, done]) {
      const refused = await post(s.core, `${PLANS}/${closed.id}/reoptimise`)
      expect(refused.statusCode).toBe(409)
      expect(refused.json().code).toBe('plan_not_reoptimisable')
    }
  })
})
