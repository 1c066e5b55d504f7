import { describe, expect, it } from 'vitest'
import { useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { square } from '../zones/zones.fixtures.js'
import { PLANS, plan, shipment } from './plans.fixtures.js'

const ctx = useTestContext()

interface Message {
  title: string
  message: string
  level: string
  icon: string
  code: string
}

const autobatch = async (core: Awaited<ReturnType<typeof deliverySetup>>['core'], planId: string) => {
  const response = await post(core, `${PLANS}/${planId}/autobatch`)
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json() as { data: boolean; messages: Message[] }
  expect(body.data).toBe(true)
  return body.messages
}

describe('autobatch says which shipments it left out, and why', () => {
  it('names each one: no coordinates, outside the zones, over capacity; nothing for those it took', async () => {
    const { core, key } = await deliverySetup(ctx)
    const zone = await post(core, '/api/v1/DeliveryZones', {
      name: 'Metro',
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    const vehicle = await post(core, '/api/v1/vehicles', {
      registration: 'CAP2',
      name: 'Van',
      maxWeight: 25,
      maxVolume: 1,
    })
    // Two of near, middle and far fit (25 kg): near and middle make the shorter route; far would make 30 kg of 25.
    const near = await shipment(core, -34.0, 18.45)
    const middle = await shipment(core, -33.9, 18.5)
    const far = await shipment(core, -33.6, 18.9)
    const bulky = await shipment(core, -34.0, 18.46, { weight: 1, volume: 1.5 })
    const outside = await shipment(core, -29.85, 31.02) // Durban
    const noCoordinates = await shipment(core, 0, 0, { deliveryAddress: { fullAddress: 'qwxz plorf' } })
    const otherDay = await shipment(core, -34.0, 18.45, { scheduledDate: '2026-12-05T08:00:00Z' })
    const p = await plan(core, {
      vehicleId: vehicle.json().data.id,
      deliveryZoneIds: [zone.json().data.id],
      depot: { fullAddress: 'Depot', latitude: -34.05, longitude: 18.4 },
    })

    const messages = await autobatch(key, p.id)
    const byCode = [near, middle, far, bulky, outside, noCoordinates].map((s) => s.code).sort()
    const leftOut = messages.filter((m) => m.level === 'Warning')
    expect(leftOut.map((m) => m.title)).toEqual(
      [far, bulky, outside, noCoordinates]
        .map((s) => s.code)
        .sort()
        .map((code) => `Shipment ${code} left out`),
    )
    const about = (code: string) => messages.find((m) => m.message.includes(`Shipment ${code}`))
    expect(about(far.code)).toEqual({
      title: `Shipment ${far.code} left out`,
      message: `Shipment ${far.code} does not fit the vehicle: its 10 kg would take the load to 30 kg of 25 kg.`,
      level: 'Warning',
      icon: 'warning',
      code: 'autobatch_over_capacity',
    })
    // The figures are the plan's load as autobatch leaves it (near and middle: 0.2 m³).
    expect(about(bulky.code)).toMatchObject({
      code: 'autobatch_over_capacity',
      message: expect.stringContaining('its 1.5 m³ would take the volume to 1.7 m³ of 1 m³'),
    })
    expect(about(outside.code)).toMatchObject({
      code: 'autobatch_outside_zones',
      message: `Shipment ${outside.code}'s delivery point (-29.85, 31.02) lies outside the plan's delivery zones.`,
    })
    expect(about(noCoordinates.code)).toMatchObject({ code: 'autobatch_no_coordinates' })
    // Nothing about the ones it took, nor about a shipment of another day.
    expect(about(near.code)).toBeUndefined()
    expect(about(middle.code)).toBeUndefined()
    expect(about(otherDay.code)).toBeUndefined()
    expect(byCode).toHaveLength(6)
    const onPlan = (await core({ url: `${PLANS}/${p.id}` })).json().data.shipments as { id: string }[]
    expect(onPlan.map((s) => s.id).sort()).toEqual([near.id, middle.id].sort())
  })

  it('says a plan with no zones draws on every active zone, and notes a stop it cannot route', async () => {
    const { core } = await deliverySetup(ctx)
    const unrouted = await shipment(core, 0, 0, { deliveryAddress: null })
    const p = await plan(core, { shipmentIds: [unrouted.id] })
    const outside = await shipment(core, -33.9, 18.4) // the business has no zone at all
    const messages = await autobatch(core, p.id)
    expect(messages.map((m) => [m.code, m.level])).toEqual([
      ['autobatch_outside_zones', 'Warning'],
      ['autobatch_stop_not_routed', 'Info'],
    ])
    expect(messages[0]?.message).toContain(`Shipment ${outside.code}'s delivery point`)
    expect(messages[0]?.message).toContain('outside every active delivery zone')
    expect(messages[1]?.message).toContain(
      `Shipment ${unrouted.code} is on the plan but has no delivery coordinates`,
    )
    // A second run over a full plan has nothing new to say about the routed ones.
    await post(core, '/api/v1/DeliveryZones', {
      name: 'Everything near',
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    expect((await autobatch(core, p.id)).map((m) => m.code)).toEqual(['autobatch_stop_not_routed'])
  })

  it("takes the shipments of the plan's day in the business's time zone", async () => {
    const { core, org } = await deliverySetup(ctx)
    const moved = await put(core, `/api/business/${org.businessId}`, {
      registeredName: 'Cape Deliveries',
      displayName: 'Cape Deliveries',
      timezone: 'Africa/Johannesburg',
    })
    expect(moved.statusCode, moved.body).toBe(200)
    await post(core, '/api/v1/DeliveryZones', {
      name: 'Metro',
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    // 23:30 UTC on the 24th is 01:30 on the 25th in Johannesburg; 21:30 UTC is still the 24th.
    const lateNight = await shipment(core, -33.9, 18.4, { scheduledDate: '2026-11-24T23:30:00Z' })
    const evening = await shipment(core, -33.9, 18.41, { scheduledDate: '2026-11-24T21:30:00Z' })
    const on25th = await plan(core, { scheduledDate: '2026-11-25' })
    const on24th = await plan(core, { scheduledDate: '2026-11-24T12:00:00Z' })
    await autobatch(core, on25th.id)
    await autobatch(core, on24th.id)
    const ids = async (id: string) =>
      ((await core({ url: `${PLANS}/${id}` })).json().data.shipments as { id: string }[]).map((s) => s.id)
    expect(await ids(on25th.id)).toEqual([lateNight.id])
    expect(await ids(on24th.id)).toEqual([evening.id])
  })
})
