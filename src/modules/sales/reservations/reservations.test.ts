import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { ownerSession, useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct, issue, ok } from '../../manufacturing/manufacturing.fixtures.js'
import {
  createPurchaseOrder,
  insertSupplier,
  step,
} from '../../purchasing/purchase-orders/purchase-orders.fixtures.js'
import {
  availabilityOf,
  confirm,
  confirmedOrder,
  draftOrder,
  type Order,
  reservationsOf,
  setShortConfirmation,
  stockedShop,
} from './reservations.fixtures.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)
const other = useOwnerSession(ctx)

describe('reservations', () => {
  it('confirming reserves, editing re-reserves, cancelling releases', async () => {
    const { customerId, product } = await stockedShop(ctx, owner, 10)
    const order = await confirmedOrder(owner.core, customerId, [
      { productId: product.id, quantity: 4 },
      { productId: null, quantity: 1 },
    ])
    expect(order.status).toBe('Confirmed')
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({
      onHand: 10,
      reserved: 4,
      available: 6,
      backordered: 0,
    })
    expect((await reservationsOf(owner.core, order.id)).lines).toEqual([
      expect.objectContaining({ lineNumber: 1, ordered: 4, reserved: 4, backordered: 0 }),
    ])
    const edited = await owner.core({
      method: 'PUT',
      url: `/api/v1/orders/${order.id}`,
      payload: { customerId, lines: [{ productId: product.id, quantity: 7, unitPrice: 5 }] },
    })
    expect(edited.statusCode).toBe(200)
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({ reserved: 7, available: 3 })
    const cancelled = await owner.core({ method: 'POST', url: `/api/v1/orders/${order.id}/cancel` })
    expect(cancelled.json().data.status).toBe('Cancelled')
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({ reserved: 0, available: 10 })
    expect((await reservationsOf(owner.core, order.id)).lines).toEqual([])
  })

  it('backorders the short part by default, and two lines of one product share what there is', async () => {
    const { customerId, product } = await stockedShop(ctx, owner, 5)
    const order = await confirmedOrder(owner.core, customerId, [
      { productId: product.id, quantity: 3 },
      { productId: product.id, quantity: 4 },
    ])
    expect(
      (await reservationsOf(owner.core, order.id)).lines.map((l) => [l.reserved, l.backordered]),
    ).toEqual([
      [3, 0],
      [2, 2],
    ])
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({ available: 0, backordered: 2 })
    const notes = await ok<{ title: string; entityId: string }[]>(
      owner.core,
      'GET',
      '/api/notifications/user?PageSize=50',
    )
    expect(notes.some((n) => n.title === 'Order backordered' && n.entityId === order.id)).toBe(true)
  })

  it('refuses a short confirmation when the business says so, naming each short line and by how much', async () => {
    const session = await ownerSession(ctx)
    const { customerId, product } = await stockedShop(ctx, session, 2)
    await setShortConfirmation(session.core, 'Refuse')
    const order = await draftOrder(session.core, customerId, [
      { productId: null, quantity: 1 },
      { productId: product.id, quantity: 5 },
    ])
    const refused = await confirm(session.core, order.id)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({
      code: 'insufficient_stock',
      reasons: [{ field: 'lines.1.quantity', message: 'short by 3 (2 available)' }],
    })
    expect((await ok<Order>(session.core, 'GET', `/api/v1/orders/${order.id}`)).status).toBe('Draft')
    expect(await availabilityOf(session.core, product.id)).toMatchObject({ reserved: 0, available: 2 })
    // Editing a confirmed order beyond the stock is refused too, and leaves the order as it was.
    const fits = await confirmedOrder(session.core, customerId, [{ productId: product.id, quantity: 2 }])
    const tooMuch = await session.core({
      method: 'PUT',
      url: `/api/v1/orders/${fits.id}`,
      payload: { customerId, lines: [{ productId: product.id, quantity: 3, unitPrice: 5 }] },
    })
    expect(tooMuch.statusCode).toBe(409)
    expect(fieldsOf(tooMuch)).toEqual(['lines.0.quantity'])
    expect((await reservationsOf(session.core, fits.id)).lines).toEqual([
      expect.objectContaining({ reserved: 2, ordered: 2 }),
    ])
  })

  it('shows incoming stock by date and promises from the earliest day it covers', async () => {
    const { customerId, product } = await stockedShop(ctx, owner, 3)
    await confirmedOrder(owner.core, customerId, [{ productId: product.id, quantity: 5 }])
    const supplierId = await insertSupplier(ctx, owner.org.businessId, { name: 'Crates Ltd' })
    const year = new Date().getUTCFullYear() + 1
    const [jan, feb, mar] = [`${year}-01-15`, `${year}-02-01`, `${year}-03-01`]
    for (const [quantity, expectedDate] of [
      [4, mar],
      [10, jan],
    ] as const) {
      const po = await createPurchaseOrder(owner.core, {
        supplierId,
        expectedDate,
        lines: [{ productId: product.id, quantity, unitCost: 2 }],
      })
      await step(owner.core, po.id, 'submit')
    }
    const figures = await availabilityOf(owner.core, product.id)
    expect(figures).toMatchObject({ onHand: 3, reserved: 3, available: 0, backordered: 2 })
    expect(figures.incoming.map((i) => [i.source, i.date, i.quantity])).toEqual([
      ['PurchaseOrder', jan, 10],
      ['PurchaseOrder', mar, 4],
    ])
    const atp = (query: string) =>
      ok<{ promisable: boolean; earliestDate: string | null; free: number }>(
        owner.core,
        'GET',
        `/api/v1/products/${product.id}/available-to-promise?${query}`,
      )
    // Free now: 0 available less 2 backordered; +10 on 15 January; +4 on 1 March.
    expect(await atp('quantity=8')).toMatchObject({ free: -2, earliestDate: jan, promisable: false })
    expect(await atp(`quantity=8&date=${feb}`)).toMatchObject({ promisable: true })
    expect(await atp(`quantity=12&date=${feb}`)).toMatchObject({ earliestDate: mar, promisable: false })
    expect(await atp('quantity=13')).toMatchObject({ earliestDate: null, promisable: false })
  })

  it('keeps stock taken out after a reservation visible as a negative availability', async () => {
    const { customerId, product } = await stockedShop(ctx, owner, 4)
    await confirmedOrder(owner.core, customerId, [{ productId: product.id, quantity: 4 }])
    await issue(owner.core, product.id, 1)
    expect(await availabilityOf(owner.core, product.id)).toMatchObject({
      onHand: 3,
      reserved: 4,
      available: -1,
    })
  })

  it('answers 400 naming the field, and 404 for another organisation', async () => {
    const product = await createProduct(owner.core)
    const theirs = await stockedShop(ctx, other, 1)
    const theirOrder = await draftOrder(other.core, theirs.customerId, [
      { productId: theirs.product.id, quantity: 1 },
    ])
    const get = (url: string) => owner.core({ method: 'GET', url })
    for (const query of ['quantity=0', 'quantity=abc', 'quantity=1e12', 'quantity=1&date=tomorrow', '']) {
      const response = await get(`/api/v1/products/${product.id}/available-to-promise?${query}`)
      expect(response.statusCode, query).toBe(400)
      expect(fieldsOf(response).join(), query).toMatch(/quantity|date/)
    }
    expect((await get(`/api/v1/products/not-a-uuid/availability`)).statusCode).toBe(400)
    for (const url of [
      `/api/v1/products/${theirs.product.id}/availability`,
      `/api/v1/products/${theirs.product.id}/available-to-promise?quantity=1`,
      `/api/v1/orders/${theirOrder.id}/reservations`,
    ]) {
      const response = await get(url)
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 })
    }
  })

  it('needs Products View for a product and Orders View for an order', async () => {
    const { customerId, product } = await stockedShop(ctx, owner, 0)
    const order = await draftOrder(owner.core, customerId, [{ productId: product.id, quantity: 1 }])
    await expectAccess(ctx, owner, 'Products', 1, [
      { method: 'GET', url: `/api/v1/products/${product.id}/availability` },
      { method: 'GET', url: `/api/v1/products/${product.id}/available-to-promise?quantity=1` },
    ])
    await expectAccess(ctx, owner, 'Orders', 1, [
      { method: 'GET', url: `/api/v1/orders/${order.id}/reservations` },
    ])
  })
})
