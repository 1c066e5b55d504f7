import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCustomer } from '../../../../test/fixtures.js'
import { type Core, startTestContext, type TestContext, useTestContext } from '../../../../test/harness.js'
import { deliverySetup, post, put } from '../delivery.fixtures.js'
import { PLANS, plan } from '../plans/plans.fixtures.js'
import { square } from '../zones/zones.fixtures.js'

interface Saved {
  data: {
    id: string
    code: string
    customerId: string | null
    deliveryAddress: Record<string, unknown> | null
    pickupAddress: Record<string, unknown> | null
  }
  messages: { code: string; level: string; message: string }[]
}

const DAY = '2026-12-01T08:00:00Z'
const save = async (core: Core, body: object) => {
  const response = await post(core, '/api/v1/shipments', { weight: 5, scheduledDate: DAY, ...body })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as Saved
}
const codes = (saved: Saved) => saved.messages.map((m) => m.code)

describe('a shipment’s delivery address on create (offline lookup)', () => {
  const ctx = useTestContext()

  it('locates an address sent as text, keeping the text as given', async () => {
    const { core, key } = await deliverySetup(ctx)
    const text = await save(core, { deliveryAddress: { fullAddress: '3 Main Road, Claremont, Cape Town' } })
    expect(text.data.deliveryAddress).toMatchObject({
      fullAddress: '3 Main Road, Claremont, Cape Town',
      street: null,
      latitude: expect.closeTo(-33.93, 1),
      longitude: expect.closeTo(18.42, 1),
    })
    expect(text.messages).toEqual([
      {
        title: 'The delivery address was located',
        message: expect.stringContaining('"3 Main Road, Claremont, Cape Town" had no coordinates'),
        level: 'Info',
        icon: 'info',
        code: 'shipment_address_located',
      },
    ])
    // Parts without a fullAddress are read in order; coordinates sent are never replaced.
    const parts = await save(key, {
      deliveryAddress: { number: '221B', street: 'Baker Street', city: 'London', postcode: 'NW1 6XE' },
      pickupAddress: { fullAddress: 'Depot', latitude: -33.9, longitude: 18.4 },
    })
    expect(parts.data.deliveryAddress).toMatchObject({ city: 'London', latitude: expect.closeTo(51.5, 0) })
    expect(parts.data.pickupAddress).toMatchObject({ latitude: -33.9, longitude: 18.4 })
    expect(codes(parts)).toEqual(['shipment_address_located'])
    const given = await save(core, {
      deliveryAddress: { fullAddress: 'Cape Town', latitude: -34, longitude: 18.5 },
    })
    expect(given.data.deliveryAddress).toMatchObject({ latitude: -34, longitude: 18.5 })
    expect(given.messages).toEqual([])
  })

  it('lets autobatch take a shipment located from its text', async () => {
    const { core } = await deliverySetup(ctx)
    const text = await save(core, { deliveryAddress: { fullAddress: '12 Long Street, Cape Town 8001' } })
    const given = await save(core, {
      deliveryAddress: { fullAddress: 'Cape Town', latitude: -34, longitude: 18.5 },
    })
    const parts = await save(core, {
      deliveryAddress: { street: 'Baker Street', city: 'London', postcode: 'NW1 6XE' },
    })
    expect(codes(parts)).toEqual(['shipment_address_located'])
    await post(core, '/api/v1/DeliveryZones', {
      name: 'Peninsula',
      polygon: { type: 'Polygon', coordinates: [square(18, -34.5, 19, -33.5)] },
    })
    const p = await plan(core, { scheduledDate: '2026-12-01' })
    const run = await post(core, `${PLANS}/${p.id}/autobatch`)
    const onPlan = (await core({ url: `${PLANS}/${p.id}` })).json().data.shipments as { id: string }[]
    expect(onPlan.map((s) => s.id).sort()).toEqual([text.data.id, given.data.id].sort())
    // London is outside the zone, and said so.
    expect(run.json().messages.map((m: { code: string; title: string }) => [m.code, m.title])).toEqual([
      ['autobatch_outside_zones', `Shipment ${parts.data.code} left out`],
    ])
  })

  it('warns when the text cannot be located, or when there is no address at all', async () => {
    const { core } = await deliverySetup(ctx)
    const unknown = await save(core, { deliveryAddress: { fullAddress: 'qwxz plorf' } })
    expect(unknown.data.deliveryAddress).toMatchObject({ fullAddress: 'qwxz plorf', latitude: null })
    expect(unknown.messages).toEqual([
      expect.objectContaining({
        code: 'shipment_address_not_located',
        level: 'Warning',
        message: expect.stringContaining('autobatch leaves a shipment without them out'),
      }),
    ])
    const none = await save(core, {})
    expect(none.data.deliveryAddress).toBeNull()
    expect(codes(none)).toEqual(['shipment_without_delivery_address'])
    // The same on update.
    const updated = await put(core, `/api/v1/shipments/${none.data.id}`, {
      deliveryAddress: { fullAddress: '12 Long Street, Cape Town 8001' },
    })
    expect(updated.statusCode, updated.body).toBe(200)
    expect(updated.json().data.deliveryAddress.latitude).toBeCloseTo(-33.93, 1)
    expect(updated.json().messages.map((m: { code: string }) => m.code)).toEqual(['shipment_address_located'])
  })

  it("takes the customer's shipping address when only customerId is given", async () => {
    const { core, org } = await deliverySetup(ctx)
    const customer = async (shippingAddress: object | null) => {
      const response = await post(core, '/api/v1/Customers', {
        name: `Customer ${Math.random().toString(36).slice(2, 8)}`,
        shippingAddress,
        billingAddress: { fullAddress: 'Billing only, Johannesburg', latitude: -26.2, longitude: 28.04 },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().data.id as string
    }
    const located = await customer({
      fullAddress: '8 Kloof Street, Gardens',
      latitude: -33.9332,
      longitude: 18.4112,
    })
    const fromCustomer = await save(core, { customerId: located })
    expect(fromCustomer.data).toMatchObject({
      customerId: located,
      deliveryAddress: { fullAddress: '8 Kloof Street, Gardens', latitude: -33.9332, longitude: 18.4112 },
    })
    expect(codes(fromCustomer)).toEqual(['shipment_address_from_customer'])

    const textOnly = await customer({ fullAddress: '20 Belmont Road, Rondebosch, Cape Town' })
    const locatedNow = await save(core, { customerId: textOnly })
    expect(locatedNow.data.deliveryAddress).toMatchObject({ latitude: expect.closeTo(-33.9, 0) })
    expect(codes(locatedNow)).toEqual(['shipment_address_from_customer', 'shipment_address_located'])

    // No shipping address: not the billing one; said so.
    const without = await save(core, { customerId: await customer(null) })
    expect(without.data.deliveryAddress).toBeNull()
    expect(without.messages).toEqual([
      expect.objectContaining({
        code: 'shipment_without_delivery_address',
        message: expect.stringContaining('neither the order nor the customer has one'),
      }),
    ])
    // An address sent wins over the customer's; a deleted customer is still a 400.
    const sent = await save(core, {
      customerId: located,
      deliveryAddress: { fullAddress: 'Here', latitude: 1, longitude: 2 },
    })
    expect(sent.data.deliveryAddress).toMatchObject({ fullAddress: 'Here' })
    expect(sent.messages).toEqual([])
    const gone = await insertCustomer(ctx, org.businessId, { deleted: true })
    const refused = await post(core, '/api/v1/shipments', { customerId: gone })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().reasons.map((r: { field: string }) => r.field)).toEqual(['customerId'])
  })
})

describe('a shipment’s delivery address with GEOCODER_URL', () => {
  let server: Server
  let ctx: TestContext
  let asked: string[] = []
  let answer: 'place' | 'nothing' = 'place'
  beforeAll(async () => {
    server = createServer((request, response) => {
      const q = new URL(request.url ?? '/', 'http://x').searchParams.get('q') ?? ''
      asked.push(q)
      const body =
        answer === 'nothing'
          ? []
          : [
              {
                lat: '-33.9581',
                lon: '18.4612',
                display_name: `geocoded: ${q}`,
                importance: 0.9,
                address: {},
              },
            ]
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    ctx = await startTestContext({ GEOCODER_URL: `http://127.0.0.1:${port}`, GEOCODER_TIMEOUT_MS: '2000' })
  })
  afterAll(async () => {
    await ctx?.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('asks the geocoder first, and falls back to the offline parser when it finds nothing', async () => {
    const { core } = await deliverySetup(ctx)
    asked = []
    answer = 'place'
    const geocoded = await save(core, { deliveryAddress: { fullAddress: '1 Station Road, Observatory' } })
    expect(asked).toEqual(['1 Station Road, Observatory'])
    expect(geocoded.data.deliveryAddress).toMatchObject({
      fullAddress: '1 Station Road, Observatory',
      latitude: -33.9581,
      longitude: 18.4612,
    })
    expect(geocoded.messages[0]?.message).toContain('geocoded: 1 Station Road, Observatory')
    answer = 'nothing'
    const parsed = await save(core, { deliveryAddress: { fullAddress: '12 Long Street, Cape Town 8001' } })
    expect(asked).toContain('12 Long Street, Cape Town 8001')
    expect(parsed.data.deliveryAddress).toMatchObject({ latitude: expect.closeTo(-33.93, 1) })
  })
})
