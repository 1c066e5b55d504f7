import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf, useSharedOrganisation } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { DAY, movePlan, PLANS, plan, shipment } from './plans.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const today = new Date().toISOString().slice(0, 10).replaceAll('-', '')

describe('delivery plans', () => {
  it('reserves codes and saves a plan idempotently on its code', async () => {
    const { core, key } = await deliverySetup(ctx)
    const first = (await core({ url: `${PLANS}/code` })).json().data.code
    expect(first).toBe(`DSP-${today}-0001`)
    expect((await key({ url: `${PLANS}/code` })).json().data.code).toBe(`DSP-${today}-0002`)
    const s = await shipment(core)
    const saved = await plan(core, {
      code: first,
      name: 'Morning',
      shipmentIds: [s.id],
      driverName: 'Jo',
      carrierId: 2,
    })
    expect(saved).toMatchObject({
      code: first,
      status: 'Draft',
      name: 'Morning',
      scheduledDate: DAY,
      carrierId: 2,
    })
    expect(saved.shipments.map((x) => x.id)).toEqual([s.id])
    const again = await plan(key, { code: first, name: 'Other' })
    expect(again.id).toBe(saved.id)
    expect((await core({ url: PLANS })).json().totalCount).toBe(1)
    const unreserved = await post(core, PLANS, { code: 'DSP-19990101-0001', scheduledDate: DAY })
    expect(fieldsOf(unreserved)).toEqual(['code'])
    const auto = await plan(core)
    expect(auto.code).toBe(`DSP-${today}-0003`)
  })

  it("dates codes and today's plans by the business's own day, in its time zone", async () => {
    const { core, org } = await deliverySetup(ctx)
    const now = new Date()
    // A zone whose date differs from UTC's at this moment: UTC+14 from 10:00 UTC, UTC-11 before 11:00.
    const timezone = now.getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago'
    const localDay = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now)
    expect(localDay).not.toBe(now.toISOString().slice(0, 10))
    const moved = await put(core, `/api/business/${org.businessId}`, {
      registeredName: 'Local Time Ltd',
      displayName: 'Local Time',
      timezone,
    })
    expect(moved.statusCode, moved.body).toBe(200)
    const code = (await core({ url: `${PLANS}/code` })).json().data.code
    expect(code).toBe(`DSP-${localDay.replaceAll('-', '')}-0001`)
    const local = await plan(core, { scheduledDate: localDay, name: 'Local today' })
    await plan(core, { scheduledDate: now.toISOString().slice(0, 10), name: 'UTC today' })
    const overview = (await core({ url: `${PLANS}/overview` })).json().data
    expect(overview.todaysPlans.map((p: { id: string }) => p.id)).toEqual([local.id])
  })

  it('validates references with 400 naming each field', async () => {
    const { core } = await deliverySetup(ctx)
    const bad = await post(core, PLANS, {
      scheduledDate: DAY,
      vehicleId: randomUUID(),
      deliveryZoneIds: [randomUUID()],
      carrierId: 9999,
    })
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad).sort()).toEqual(['carrierId', 'deliveryZoneIds.0', 'vehicleId'])
    expect(fieldsOf(await post(core, PLANS, { scheduledDate: DAY, shipmentIds: [randomUUID()] }))).toEqual([
      'shipmentIds.0',
    ])
    expect((await post(core, PLANS, { scheduledDate: 'tomorrow' })).statusCode).toBe(400)
    for (const query of [
      'page=0',
      'perPage=101',
      'from=yesterday',
      'status=Nope',
      'from=2026-02-02&to=2026-01-01',
    ]) {
      expect((await core({ url: `${PLANS}?${query}` })).statusCode, query).toBe(400)
    }
  })

  it('lists with page, perPage, from, to and status', async () => {
    const { core } = await deliverySetup(ctx)
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-03']) await plan(core, { scheduledDate: day })
    const page = (await core({ url: `${PLANS}?perPage=2&page=1` })).json()
    expect(page).toMatchObject({ count: 2, totalCount: 3, pageSize: 2, finalPage: 2, hasMore: true })
    expect(page.data.map((p: { scheduledDate: string }) => p.scheduledDate)).toEqual([
      '2026-11-03',
      '2026-11-02',
    ])
    const ranged = (await core({ url: `${PLANS}?from=2026-11-02&to=2026-11-02` })).json()
    expect(ranged.data.map((p: { scheduledDate: string }) => p.scheduledDate)).toEqual(['2026-11-02'])
    expect((await core({ url: `${PLANS}?status=draft` })).json().totalCount).toBe(3)
    expect((await core({ url: `${PLANS}?status=Completed` })).json().totalCount).toBe(0)
  })

  it('keeps a shipment on at most one plan, releases on remove and delete', async () => {
    const { core, key } = await deliverySetup(ctx)
    const s = await shipment(core)
    const a = await plan(core)
    const b = await plan(core)
    expect((await post(core, `${PLANS}/${a.id}/shipments`, { shipmentId: s.id })).json().data).toBe(true)
    expect((await core({ url: `/api/v1/shipments/${s.id}` })).json().data).toMatchObject({
      status: 'Assigned',
      deliveryPlanId: a.id,
      stopSequence: 1,
    })
    const twice = await post(key, `${PLANS}/${b.id}/shipments`, { shipmentId: s.id })
    expect(twice.statusCode).toBe(409)
    expect(twice.json().code).toBe('shipment_on_another_plan')
    expect((await core({ url: `${PLANS}/in-shipment/${s.id}` })).json().data.id).toBe(a.id)
    expect((await core({ url: `${PLANS}/unassigned-shipments` })).json().totalCount).toBe(0)
    expect((await core({ method: 'DELETE', url: `${PLANS}/${a.id}/shipments/${s.id}` })).json().data).toBe(
      true,
    )
    expect((await core({ url: `/api/v1/shipments/${s.id}` })).json().data).toMatchObject({
      status: 'Pending',
      deliveryPlanId: null,
    })
    expect((await core({ method: 'DELETE', url: `${PLANS}/${a.id}/shipments/${s.id}` })).statusCode).toBe(404)
    expect((await core({ url: `${PLANS}/in-shipment/${s.id}` })).statusCode).toBe(404)
    await post(core, `${PLANS}/${b.id}/shipments`, { shipmentId: s.id })
    expect((await key({ method: 'DELETE', url: `${PLANS}/${b.id}` })).json().data).toBe(true)
    expect(
      (await core({ url: `${PLANS}/unassigned-shipments` })).json().data.map((x: { id: string }) => x.id),
    ).toEqual([s.id])
  })

  it('moves Draft -> Scheduled -> Dispatched -> Completed, with shipments, timeline and overview', async () => {
    const { core, key } = await deliverySetup(ctx)
    // A failed delivery stays on its plan as Returned (the default, Replan, takes it off the plan at completion).
    const setting = await core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'delivery.failedDeliveryAction': 'ReturnToStock' },
    })
    expect(setting.statusCode, setting.body).toBe(200)
    const s1 = await shipment(core)
    const s2 = await shipment(core)
    const p = await plan(core, { shipmentIds: [s1.id, s2.id] })
    expect((await movePlan(core, p.id, 'dispatch')).statusCode).toBe(409)
    expect((await movePlan(core, p.id, 'schedule')).json().data.status).toBe('Scheduled')
    const dispatched = (await movePlan(key, p.id, 'dispatch')).json().data
    expect(dispatched.status).toBe('Dispatched')
    expect(dispatched.shipments.map((x: { status: string }) => x.status)).toEqual(['InTransit', 'InTransit'])
    // The plan and its shipments are dispatched at one instant.
    expect(dispatched.shipments.map((x: { dispatchedAt: string }) => x.dispatchedAt)).toEqual([
      dispatched.dispatchedAt,
      dispatched.dispatchedAt,
    ])
    expect((await put(core, `${PLANS}/${p.id}`, { scheduledDate: DAY })).json().code).toBe(
      'plan_not_editable',
    )
    expect(
      (await post(core, `${PLANS}/${p.id}/shipments`, { shipmentId: (await shipment(core)).id })).statusCode,
    ).toBe(409)
    expect((await movePlan(core, p.id, 'cancel')).statusCode).toBe(409)
    expect((await core({ method: 'DELETE', url: `${PLANS}/${p.id}` })).statusCode).toBe(409)
    const open = await movePlan(core, p.id, 'complete')
    expect(open.json().code).toBe('plan_has_open_shipments')
    await post(core, `/api/v1/shipments/${s1.id}/deliver`)
    await post(core, `/api/v1/shipments/${s2.id}/fail`, { reason: 'Closed' })
    const completed = (await movePlan(core, p.id, 'complete')).json().data
    expect(completed.status).toBe('Completed')
    expect(completed.completedAt).toBeTruthy()
    const timeline = (await key({ url: `${PLANS}/${p.id}/timeline` })).json().data
    const milestones = timeline.entries.map(
      (e: { subject: string; milestone: string }) => `${e.subject}:${e.milestone}`,
    )
    expect(milestones[0]).toBe('Plan:Created')
    expect(milestones).toEqual(
      expect.arrayContaining([
        'Plan:Scheduled',
        'Plan:Dispatched',
        'Plan:Completed',
        'Shipment:Delivered',
        'Shipment:Failed',
      ]),
    )
    const times = timeline.entries.map((e: { at: string }) => Date.parse(e.at))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect(timeline.entries.find((e: { milestone: string }) => e.milestone === 'Failed').note).toBe('Closed')
    const overview = (await core({ url: `${PLANS}/overview` })).json().data
    expect(overview.countsByStatus).toMatchObject({ Completed: 1, Draft: 0 })
    expect(overview.unassignedShipments).toBe(1)
  })

  it('cancels from Draft releasing shipments; updates a Draft; a vehicle on a live plan cannot be deleted', async () => {
    const { core } = await deliverySetup(ctx)
    const vehicle = (await post(core, '/api/v1/vehicles', { registration: 'V1', name: 'Van' })).json().data
    const s = await shipment(core)
    const p = await plan(core, { shipmentIds: [s.id], vehicleId: vehicle.id })
    const updated = await put(core, `${PLANS}/${p.id}`, {
      scheduledDate: '2026-12-02',
      name: 'Later',
      vehicleId: vehicle.id,
    })
    expect(updated.json().data).toMatchObject({
      scheduledDate: '2026-12-02',
      name: 'Later',
      vehicleId: vehicle.id,
    })
    const inUse = await core({ method: 'DELETE', url: `/api/v1/vehicles/${vehicle.id}` })
    expect(inUse.json().code).toBe('vehicle_in_use')
    expect((await movePlan(core, p.id, 'cancel')).json().data).toMatchObject({
      status: 'Cancelled',
      shipments: [],
    })
    expect((await core({ url: `/api/v1/shipments/${s.id}` })).json().data.status).toBe('Pending')
    expect((await core({ method: 'DELETE', url: `/api/v1/vehicles/${vehicle.id}` })).json().data).toBe(true)
    expect((await core({ url: `${PLANS}/${p.id}` })).json().data.vehicleId).toBeNull()
  })

  it('answers 401, 403 per permission and 404 for another organisation', async () => {
    const { core, member, scoped } = await deliverySetup(ctx)
    const other = await deliverySetup(ctx, undefined, 'another')
    const foreign = await plan(other.core)
    const foreignShipment = await shipment(other.core)
    const mine = await plan(core)
    expect((await ctx.core.inject({ url: PLANS })).statusCode).toBe(401)
    expect((await member({ url: `${PLANS}/overview` })).statusCode).toBe(200)
    expect((await post(member, PLANS, { scheduledDate: DAY })).statusCode).toBe(403)
    expect((await member({ method: 'DELETE', url: `${PLANS}/${mine.id}` })).statusCode).toBe(403)
    expect((await scoped({ url: `${PLANS}/code` })).statusCode).toBe(403)
    for (const request of [
      { url: `${PLANS}/${foreign.id}` },
      { url: `${PLANS}/${foreign.id}/timeline` },
      { method: 'PUT' as const, url: `${PLANS}/${foreign.id}`, payload: { scheduledDate: DAY } },
      { method: 'DELETE' as const, url: `${PLANS}/${foreign.id}` },
      { method: 'POST' as const, url: `${PLANS}/${foreign.id}/autobatch` },
      { method: 'POST' as const, url: `${PLANS}/${foreign.id}/schedule` },
      {
        method: 'POST' as const,
        url: `${PLANS}/${mine.id}/shipments`,
        payload: { shipmentId: foreignShipment.id },
      },
      { url: `${PLANS}/in-shipment/${foreignShipment.id}` },
    ]) {
      expect((await core(request)).statusCode, request.url).toBe(404)
    }
  })
})
