import { describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { post, put } from '../../delivery/delivery.fixtures.js'
import { movePlan, plan, shipment } from '../../delivery/plans/plans.fixtures.js'
import { stop, uploaded } from '../../delivery/proof-of-delivery/proof-of-delivery.fixtures.js'
import { PNG } from '../../organisation/files/files.fixtures.js'
import {
  confirmedOrder,
  setShortConfirmation,
  stockedShop,
} from '../../sales/reservations/reservations.fixtures.js'
import { moveReturn, requestedReturn } from '../../sales/returns/returns.fixtures.js'
import { dashboard } from './dashboard.fixtures.js'

const ctx = useTestContext()

describe('the dashboard’s fulfilment figures', () => {
  it('counts fill rate, on time in full, revenue shipped, open backorders and returns from the orders and their shipments', async () => {
    const owner = await ownerSession(ctx)
    const { core } = owner
    // 10 on hand; the second order asks for 10 more than is left, so 4 of it are backordered.
    const { customerId, product } = await stockedShop(ctx, owner, 10)
    await setShortConfirmation(core, 'Backorder')
    const shipped = await confirmedOrder(core, customerId, [{ productId: product.id, quantity: 4 }])
    await confirmedOrder(core, customerId, [{ productId: product.id, quantity: 10 }])

    // The first order goes out whole, on a plan two days ahead, and is delivered now: on time, in full.
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
    const parcel = await shipment(core, -33.9, 18.4, {
      orderId: shipped.id,
      scheduledDate: `${day}T08:00:00Z`,
    })
    const lines = await put(core, `/api/v1/shipments/${parcel.id}/lines`, {
      lines: [{ orderLineId: shipped.lines[0]!.id, quantity: 4 }],
    })
    expect(lines.statusCode, lines.body).toBe(200)
    const route = await plan(core, { scheduledDate: day })
    expect(
      (await post(core, `/api/v1/plans/${route.id}/shipments`, { shipmentId: parcel.id })).statusCode,
    ).toBe(200)
    for (const move of ['schedule', 'dispatch']) {
      const moved = await movePlan(core, route.id, move)
      expect(moved.statusCode, moved.body).toBe(200)
    }
    const signatureFileId = await uploaded(core, PNG, 'signature.png')
    const delivered = await stop(core, parcel.id, 'delivered', {
      recipientName: 'Thandi Nkosi',
      signatureFileId,
    })
    expect(delivered.statusCode, delivered.body).toBe(200)

    // One jar comes back, received into stock: a return credited at the order line's 5.
    const returned = await requestedReturn(core, {
      shipmentId: parcel.id,
      lines: [{ productId: product.id, quantity: 1 }],
    })
    expect((await moveReturn(core, returned.id, 'receive', {})).statusCode).toBe(200)

    const summary = await dashboard(core, 'summary', {})
    expect(summary.statusCode, summary.body).toBe(200)
    const data = summary.json().data
    expect(data.fulfilment).toEqual({
      orderedUnits: 14,
      filledUnits: 4,
      fillRate: 0.2857,
      otifRated: 1,
      otifOrders: 1,
      otifRate: 1,
      // 4 shipped at the order line's 5.
      shippedRevenue: 20,
      backorderedOrders: 1,
      backorderedLines: 1,
      backorderedUnits: 4,
      returnsCredited: 1,
      returnedValue: 5,
    })
    expect(data.changes.shippedRevenue).toMatchObject({ current: 20, previous: 0, changePercent: null })
  })
})
