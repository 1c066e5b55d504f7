import { describe, expect, it } from 'vitest'
import { at, post, put } from '../src/modules/delivery/delivery.fixtures.js'
import { PLANS, plan } from '../src/modules/delivery/plans/plans.fixtures.js'
import {
  createTransfer,
  daysFromNow,
  headAndBranch,
  productPair,
  receiveTransfer,
  ship,
} from '../src/modules/inventory/transfer-orders/transfer-orders.fixtures.js'
import { createProduct } from '../src/modules/manufacturing/manufacturing.fixtures.js'
import {
  createOrder,
  step,
  tableShop,
} from '../src/modules/manufacturing/work-orders/work-orders.fixtures.js'
import {
  receiveGoods,
  receiveOk,
  submittedOrder,
  supplierShop,
} from '../src/modules/purchasing/purchase-orders/purchase-orders.fixtures.js'
import {
  businessSession,
  fieldsOf,
  insertCustomer,
  sharedOrganisation,
  useSharedOrganisation,
} from './fixtures.js'
import { type Core, useTestContext } from './harness.js'

// The one range of dates on business records (docs/api-guide.md, "Dates"): ledger dates from
// 1970-01-01T00:00:00Z up to now, other business dates from then to before ten years from now.
const ctx = useTestContext()
// Each story is about one business's records: a new business of one shared organisation each.
useSharedOrganisation(ctx)
const TOO_EARLY = ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z']
const yearsFromNow = (years: number, days = 0) => {
  const date = new Date(Date.now() + days * 86_400_000)
  date.setUTCFullYear(date.getUTCFullYear() + years)
  return date.toISOString()
}
// A day past the limit: the limit moves on while the test runs.
const TOO_LATE = [yearsFromNow(10, 1), '9999-12-31T00:00:00Z']

type Response = Awaited<ReturnType<Core>>
function refused(response: Response, field: string, label: string) {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(400)
  expect(fieldsOf(response), label).toEqual([field])
}
function accepted(response: Response, label: string) {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(200)
}

describe('ledger dates: from 1970-01-01T00:00:00Z, never in the future', () => {
  it('on stock movements, one at a time and in bulk', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const product = await createProduct(core)
    const receipt = { type: 'Receipt', quantity: 1, unitCost: 2 }
    for (const effectiveDate of [...TOO_EARLY, daysFromNow(1)]) {
      const row = { ...receipt, effectiveDate }
      refused(
        await post(core, `/api/v1/products/${product.id}/stock-movements`, row),
        'effectiveDate',
        effectiveDate,
      )
      const bulk = { movements: [{ ...row, productId: product.id }] }
      refused(
        await post(core, '/api/v1/products/stock-movements/bulk', bulk),
        'movements.0.effectiveDate',
        effectiveDate,
      )
    }
    const first = { ...receipt, effectiveDate: '1970-01-01T00:00:00Z' }
    accepted(
      await post(core, `/api/v1/products/${product.id}/stock-movements`, first),
      'the first instant of 1970',
    )
  })

  it('on purchase-order receipts and their reversals', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    const lines = [{ productId: shop.steel.id, quantity: 1 }]
    for (const effectiveDate of [...TOO_EARLY, daysFromNow(1)])
      refused(
        await receiveGoods(owner.core, order.id, { effectiveDate, lines }),
        'effectiveDate',
        effectiveDate,
      )
    const receipt = await receiveOk(owner.core, order.id, { effectiveDate: daysFromNow(-2), lines })
    const reverse = `/api/v1/purchase-orders/${order.id}/receipts/${receipt.id}/reverse`
    for (const effectiveDate of [...TOO_EARLY, daysFromNow(1)])
      refused(await post(owner.core, reverse, { effectiveDate }), 'effectiveDate', effectiveDate)
  })

  it("on a work order's completion", async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { bom } = await tableShop(core)
    const order = await createOrder(core, bom.id, 1)
    await step(core, order.id, 'release')
    for (const effectiveDate of [...TOO_EARLY, daysFromNow(1)])
      refused(
        await post(core, `/api/v1/work-orders/${order.id}/complete`, { effectiveDate }),
        'effectiveDate',
        effectiveDate,
      )
  })

  it("on a transfer's shipping and receipt", async () => {
    const { head, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 5, 2, '2026-01-01T00:00:00Z')
    const transfer = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    const shipPath = `/api/v1/transfer-orders/${transfer.id}/ship`
    for (const effectiveDate of [...TOO_EARLY, daysFromNow(1)])
      refused(await post(head, shipPath, { effectiveDate }), 'effectiveDate', effectiveDate)
    await ship(head, transfer.id, { effectiveDate: daysFromNow(-2) })
    const receivePath = `/api/v1/transfer-orders/${transfer.id}/receipts`
    for (const effectiveDate of [...TOO_EARLY, daysFromNow(1)])
      refused(await post(branch, receivePath, { effectiveDate }), 'effectiveDate', effectiveDate)
    expect(await receiveTransfer(branch, transfer.id, { effectiveDate: daysFromNow(-1) })).toMatchObject({
      status: 'Received',
    })
  })
})

describe('other business dates: from 1970-01-01T00:00:00Z to before ten years from now', () => {
  it("on orders, shipments, a transfer's shipment and plans", async () => {
    const { core, org } = await businessSession(ctx, await sharedOrganisation(ctx))
    const customerId = await insertCustomer(ctx, org.businessId)
    const orderBody = { customerId, lines: [{ description: 'Box', quantity: 1, unitPrice: 10 }] }
    const order = (await post(core, '/api/v1/orders', orderBody)).json().data as { id: string }
    const shipmentBody = { deliveryAddress: at(-33.9, 18.4), weight: 1 }
    const shipment = (await post(core, '/api/v1/shipments', shipmentBody)).json().data as { id: string }
    const dispatch = await plan(core)
    for (const date of [...TOO_EARLY, ...TOO_LATE]) {
      refused(await post(core, '/api/v1/orders', { ...orderBody, orderDate: date }), 'orderDate', date)
      refused(
        await put(core, `/api/v1/orders/${order.id}`, { ...orderBody, orderDate: date }),
        'orderDate',
        date,
      )
      const scheduled = { ...shipmentBody, scheduledDate: date }
      refused(await post(core, '/api/v1/shipments', scheduled), 'scheduledDate', date)
      refused(await put(core, `/api/v1/shipments/${shipment.id}`, scheduled), 'scheduledDate', date)
      for (const day of [date, date.slice(0, 10)]) {
        refused(await post(core, PLANS, { scheduledDate: day }), 'scheduledDate', day)
        refused(await put(core, `${PLANS}/${dispatch.id}`, { scheduledDate: day }), 'scheduledDate', day)
      }
    }
    const ahead = yearsFromNow(9)
    accepted(await post(core, '/api/v1/orders', { ...orderBody, orderDate: '1970-01-01T00:00:00Z' }), '1970')
    accepted(await post(core, '/api/v1/shipments', { ...shipmentBody, scheduledDate: ahead }), ahead)
    accepted(await post(core, PLANS, { scheduledDate: ahead.slice(0, 10) }), ahead)
  })

  it("on a transfer's shipment", async () => {
    const { head, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 5, 2, '2026-01-01T00:00:00Z')
    const transfer = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    const path = `/api/v1/transfer-orders/${transfer.id}/shipment`
    for (const scheduledDate of [...TOO_EARLY, ...TOO_LATE])
      refused(await post(head, path, { scheduledDate }), 'scheduledDate', scheduledDate)
    accepted(await post(head, path, { scheduledDate: daysFromNow(3) }), 'in three days')
  })

  it('on work orders, purchase orders and customer traces', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { core } = owner
    const { bom } = await tableShop(core)
    const workOrder = await createOrder(core, bom.id, 1)
    const shop = await supplierShop(ctx, owner)
    const poBody = { supplierId: shop.supplierId, lines: [{ productId: shop.steel.id, quantity: 1 }] }
    const purchase = (await post(core, '/api/v1/purchase-orders', poBody)).json().data as { id: string }
    const customerId = await insertCustomer(ctx, owner.org.businessId)
    for (const date of [...TOO_EARLY, ...TOO_LATE]) {
      for (const field of ['plannedStart', 'plannedEnd']) {
        const body = { bomId: bom.id, quantity: 1, [field]: date }
        refused(await post(core, '/api/v1/work-orders', body), field, `${field} ${date}`)
        refused(await put(core, `/api/v1/work-orders/${workOrder.id}`, body), field, `${field} ${date}`)
      }
      const expected = { ...poBody, expectedDate: date.slice(0, 10) }
      refused(await post(core, '/api/v1/purchase-orders', expected), 'expectedDate', date)
      refused(await put(core, `/api/v1/purchase-orders/${purchase.id}`, expected), 'expectedDate', date)
    }
    for (const occurredAt of TOO_EARLY)
      refused(
        await post(core, `/api/v1/customers/${customerId}/traces`, { type: 'Call', occurredAt }),
        'occurredAt',
        occurredAt,
      )
    const early = '1970-01-01T00:00:00Z'
    accepted(
      await post(core, '/api/v1/work-orders', { bomId: bom.id, quantity: 1, plannedStart: early }),
      early,
    )
    accepted(await post(core, '/api/v1/purchase-orders', { ...poBody, expectedDate: '1970-01-01' }), early)
  })
})
