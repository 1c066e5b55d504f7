import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../../../test/fixtures.js'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { afterRowLockWait } from '../../../../test/row-lock.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { ledgerOf, ok, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import {
  getOrder,
  receiveGoods,
  receiveOk,
  submittedOrder,
  supplierShop,
} from './purchase-orders.fixtures.js'

const ctx = useTestContext()

// Concurrent receipts of one line: the line's row lock makes the second see the first's quantity.
describe.skipIf(!testDatabaseUrl())('purchase order receipts racing (PostgreSQL)', () => {
  it('lets only one of two receipts of a whole line through while the line is held', async () => {
    const owner = await ownerSession(ctx)
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    const line = order.lines[0]!
    const both = () =>
      Promise.all(
        [1, 2].map(() => receiveGoods(owner.core, order.id, { lines: [{ lineId: line.id, quantity: 10 }] })),
      )
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'purchase_order_lines', id: line.id },
      both,
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(result.find((r) => r.statusCode === 409)?.json().code).toBe('over_receipt')
    expect((await getOrder(owner.core, order.id)).lines[0]).toMatchObject({ receivedQuantity: 10 })
    expect(await ledgerOf(owner.core, shop.steel.id)).toHaveLength(1)
    expect(await stockOf(owner.core, shop.steel.id)).toMatchObject({ onHand: 10 })
  })

  it('accepts exactly 10 of 30 parallel receipts of 1 against 10 ordered', async () => {
    const owner = await ownerSession(ctx)
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        receiveGoods(owner.core, order.id, { lines: [{ productId: shop.steel.id, quantity: 1 }] }),
      ),
    )
    const statuses = responses.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 409)).toHaveLength(20)
    expect((await getOrder(owner.core, order.id)).lines[0]).toMatchObject({ receivedQuantity: 10 })
    expect(await stockOf(owner.core, shop.steel.id)).toMatchObject({ onHand: 10 })
  })

  it('reverses a receipt once when two reversals race', async () => {
    const owner = await ownerSession(ctx)
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    const receipt = await receiveOk(owner.core, order.id, {
      lines: [{ productId: shop.steel.id, quantity: 4 }],
    })
    const reverse = () =>
      owner.core({
        method: 'POST',
        url: `/api/v1/purchase-orders/${order.id}/receipts/${receipt.id}/reverse`,
        payload: {},
      })
    const { result } = await afterRowLockWait(
      ctx,
      { schema: await schemaOf(ctx, owner.org.businessId), table: 'purchase_orders', id: order.id },
      () => Promise.all([reverse(), reverse()]),
    )
    expect(result.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(result.find((r) => r.statusCode === 409)?.json().code).toBe('purchase_receipt_reversed')
    expect(await stockOf(owner.core, shop.steel.id)).toMatchObject({ onHand: 0 })
    expect(await ledgerOf(owner.core, shop.steel.id)).toHaveLength(2)
  })

  it('drafts from the reorder suggestions once when two calls race', async () => {
    const owner = await ownerSession(ctx)
    const shop = await supplierShop(ctx, owner)
    await ok(owner.core, 'PUT', `/api/v1/products/${shop.steel.id}`, {
      sku: shop.steel.sku,
      name: shop.steel.name,
      type: 'RawMaterial',
      reorderLevel: 5,
    })
    const draft = () =>
      ok<{ purchaseOrders: unknown[] }>(
        owner.core,
        'POST',
        '/api/v1/purchase-orders/from-reorder-suggestions',
        {},
      )
    const [first, second] = await Promise.all([draft(), draft()])
    expect([first.purchaseOrders.length, second.purchaseOrders.length].sort()).toEqual([0, 1])
  })
})
