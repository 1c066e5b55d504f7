import { describe, expect, it } from 'vitest'
import { coreAs, signIn, uniqueEmail, useTestContext } from '../../test/harness.js'
import { seedDemo } from './seed-demo.js'

const ctx = useTestContext()

describe('seed --demo', () => {
  // Some sixty requests: seconds alone, more than the default 30 s on a busy machine.
  it('creates the demo organisation through the APIs, once', async () => {
    const email = uniqueEmail('demo')
    const lines: string[] = []
    const result = await seedDemo(ctx, (line) => lines.push(line), email)
    expect(result).toMatchObject({ created: true, email, password: expect.stringMatching(/^demo-.{12}$/) })
    expect(lines).toHaveLength(19)

    const signedIn = await signIn(ctx, { email, password: result.password ?? '' })
    const core = coreAs(ctx, { accessToken: signedIn.accessToken, businessId: result.businessId ?? '' })
    const get = async (url: string) => {
      const response = await core({ url })
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
      return response.json() as { data: unknown; totalCount?: number }
    }
    const total = async (url: string) => (await get(url)).totalCount

    const me = (await get('/api/me')).data as {
      businesses: { id: string; parentBusinessId: string | null }[]
    }
    expect(me.businesses).toHaveLength(2)
    expect(me.businesses.find((b) => b.id === result.branchId)?.parentBusinessId).toBe(result.businessId)
    // A Cape Town business: rand and South African time, for the head office and its branch.
    expect((await get('/api/business/my-business')).data).toMatchObject({
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
      requiresDispatchBuilder: true,
      address: { city: 'Cape Town' },
    })
    const children = (await get(`/api/business/${result.businessId}/children`)).data as object[]
    expect(children).toEqual([
      expect.objectContaining({ id: result.branchId, currency: 'ZAR', timezone: 'Africa/Johannesburg' }),
    ])
    expect(await total('/api/v1/Customers')).toBe(8)
    expect(await total('/api/v1/CustomerGroups')).toBe(2)
    const customers = (await get('/api/v1/Customers?PageSize=50')).data as { contacts: unknown[] }[]
    expect(customers.every((c) => c.contacts.length === 1)).toBe(true)
    expect(await total('/api/v1/products')).toBe(7)
    expect(await total('/api/v1/bom')).toBe(2)
    const workOrders = (await get('/api/v1/work-orders')).data as { status: string }[]
    expect(workOrders.map((w) => w.status)).toEqual(['Completed'])
    expect(await total('/api/v1/orders')).toBe(11)
    expect(await total('/api/v1/DeliveryZones')).toBe(3)
    expect(await total('/api/v1/vehicles')).toBe(3)
    expect(await total('/api/v1/shipments')).toBe(11)
    const plans = (await get('/api/v1/plans')).data as {
      name: string
      status: string
      shipments: unknown[]
      autobatchedAt: string | null
    }[]
    expect(plans.map((p) => [p.name, p.status, p.shipments.length]).sort()).toEqual([
      ['Early run', 'Dispatched', 3],
      ['Morning run', 'Draft', 8],
    ])
    expect(plans.find((p) => p.name === 'Morning run')?.autobatchedAt).not.toBeNull()
    // The sale went through the stock: 11 orders confirmed, the early run's jars issued, two delivered
    // on time and in full, and the dashboard says so on the first day.
    const summary = (await get('/api/v1/insights/dashboard/summary')).data as Record<string, unknown>
    expect(summary).toMatchObject({
      orders: { count: 11, byStatus: { Confirmed: 8, Fulfilled: 3 } },
      shipments: { delivered: 2, deliveredOnTime: 2, byStatus: { Assigned: 8, Delivered: 2, Failed: 1 } },
      // The early run's 3 shipments of 2 jars at 89.50 went out, of the 14 jars ordered.
      fulfilment: {
        orderedUnits: 14,
        filledUnits: 6,
        shippedRevenue: 537,
        otifRated: 2,
        otifOrders: 2,
        returnsCredited: 1,
        returnedValue: 89.5,
      },
    })
    expect(await total('/api/carriers?configured=true')).toBe(1)
    expect(await total('/api/v1/suppliers')).toBe(2)
    const reorder = (await get('/api/v1/suppliers/reorder-suggestions')).data as {
      productSku: string
      preferredSupplier: { name: string } | null
    }[]
    expect(reorder).toContainEqual(
      expect.objectContaining({
        productSku: 'PK-BOX',
        preferredSupplier: expect.objectContaining({ name: 'Karoo Packaging' }),
      }),
    )
    // Stock moved to the branch: 10 jars of the 40 still in transit.
    const transfers = (await get('/api/v1/transfer-orders')).data as { status: string; direction: string }[]
    expect(transfers).toEqual([
      expect.objectContaining({ status: 'PartiallyReceived', direction: 'Outgoing' }),
    ])
    const inTransit = (await get('/api/v1/transfer-orders/in-transit')).data as {
      sku: string
      quantityInTransit: number
    }[]
    expect(inTransit).toEqual([expect.objectContaining({ sku: 'PK-JAR', quantityInTransit: 10 })])

    const notifications = (await get('/api/notifications/user')).data as { title: string }[]
    expect(notifications.map((n) => n.title)).toEqual(
      expect.arrayContaining(['Work order completed', 'Stock at reorder level', 'Autobatch finished']),
    )
    // A back-dated receipt: the stock 45 days ago already holds the first deliveries.
    const products = (await get('/api/v1/products?PageSize=50')).data as {
      id: string
      sku: string
      unitOfMeasure: string
    }[]
    const flour = products.find((p) => p.sku === 'RM-FLOUR')
    // Goods bought by weight are counted in kg, not as items.
    expect(flour?.unitOfMeasure).toBe('kg')
    expect(products.find((p) => p.sku === 'PK-JAR')?.unitOfMeasure).toBe('Each')
    const past = new Date(Date.now() - 45 * 86_400_000).toISOString()
    const stock = (await get(`/api/v1/products/${flour?.id}/stock?asOfDate=${encodeURIComponent(past)}`)).data
    expect(stock).toMatchObject({ onHand: 100, unitCost: 14.5 })

    const again = await seedDemo(ctx, () => lines.push('again'), email)
    expect(again).toEqual({ created: false, email })
    expect(lines).toHaveLength(19)
    expect(await total('/api/v1/Customers')).toBe(8)
  }, 120_000)
})
