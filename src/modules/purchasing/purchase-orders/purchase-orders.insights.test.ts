import { describe, expect, it } from 'vitest'
import {
  addBusiness,
  businessSession,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import { ok } from '../../manufacturing/manufacturing.fixtures.js'
import {
  createPurchaseOrder,
  receiveOk,
  step,
  submittedOrder,
  supplierShop,
} from './purchase-orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('purchase orders in the SQL console and the dashboard', () => {
  it('shows the business’s purchase orders and lines in the console, and no one else’s', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    await receiveOk(owner.core, order.id, { lines: [{ productId: shop.steel.id, quantity: 4 }] })
    const branch = coreAs(ctx, {
      accessToken: owner.signedIn.accessToken,
      businessId: await addBusiness(ctx, owner.org.businessId),
    })
    const stranger = await sharedOrganisation(ctx, 'another')
    await submittedOrder(stranger.core, await supplierShop(ctx, stranger))
    const query = {
      query:
        'SELECT po.number, po.status, po.total, sum(l.received_quantity) AS received FROM purchase_orders po ' +
        'JOIN purchase_order_lines l ON l.purchase_order_id = po.id GROUP BY po.number, po.status, po.total',
    }
    const mine = await ok<{ rows: unknown[][] }>(owner.core, 'POST', '/api/ai-studio/query', query)
    expect(mine.rows).toEqual([[order.number, 'PartiallyReceived', '75.0000', '4.0000']])
    expect((await ok<{ rows: unknown[][] }>(branch, 'POST', '/api/ai-studio/query', query)).rows).toEqual([])
  })

  it('counts open, overdue and draft orders and the open value per currency on the dashboard', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const figures = () => ok(owner.core, 'GET', '/api/v1/insights/dashboard/purchase-orders')
    expect(await figures()).toEqual({
      byStatus: { Draft: 0, Submitted: 0, PartiallyReceived: 0, Received: 0, Closed: 0, Cancelled: 0 },
      openCount: 0,
      overdueCount: 0,
      openValues: [],
    })
    const late = await submittedOrder(owner.core, shop)
    await receiveOk(owner.core, late.id, { lines: [{ productId: shop.steel.id, quantity: 4 }] })
    const inDollars = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      currency: 'USD',
      expectedDate: '2020-01-01',
      lines: [{ productId: shop.bolt.id, quantity: 10, unitCost: 2 }],
    })
    await step(owner.core, inDollars.id, 'submit')
    await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      lines: [{ productId: shop.bolt.id, quantity: 1 }],
    })
    expect(await figures()).toMatchObject({
      byStatus: { Draft: 1, Submitted: 1, PartiallyReceived: 1 },
      openCount: 2,
      overdueCount: 1,
      // EUR: 75 ordered, 6 steel × 4.5 + 100 bolts × 0.3 = 57 to come.
      openValues: [
        { currency: 'EUR', count: 1, total: 75, outstanding: 57 },
        { currency: 'USD', count: 1, total: 20, outstanding: 20 },
      ],
    })
    const notifications = JSON.stringify(
      (await owner.core({ method: 'GET', url: '/api/notifications/user' })).json(),
    )
    expect(notifications).toContain('Purchase order overdue')
    const anonymous = await ctx.core.inject({
      method: 'GET',
      url: '/api/v1/insights/dashboard/purchase-orders',
    })
    expect(anonymous.statusCode).toBe(401)
  })
})
