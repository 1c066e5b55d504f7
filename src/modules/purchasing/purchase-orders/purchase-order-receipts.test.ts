import { randomUUID } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  businessSession,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { issue, ledgerOf, ok, receive, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import {
  getOrder,
  type Receipt,
  receiveGoods,
  receiveOk,
  step,
  submittedOrder,
  supplierShop,
} from './purchase-orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

function captureEvents() {
  const events: DomainEvent[] = []
  onTestFinished(
    ctx.services.events.on(`receipts-test-${randomUUID()}`, async (_db, _schema, event) => {
      if (event.type.startsWith('PurchaseOrder')) events.push(event)
    }),
  )
  return events
}

describe('purchase order receipts', () => {
  it('receives in parts, back-dated, into the ledger at the line cost, re-valuing later entries (worked example)', async () => {
    const events = captureEvents()
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { core } = owner
    const shop = await supplierShop(ctx, owner)
    // Steel: 10 @ 6 on Jan 1, 5 issued on Feb 1.
    await receive(core, shop.steel.id, 10, 6, '2026-01-01T00:00:00Z')
    await issue(core, shop.steel.id, 5, '2026-02-01T00:00:00Z')
    const order = await submittedOrder(core, shop)
    // 10 steel at 4.5, back-dated to Jan 10: 20 @ 5.25 then, and the Feb 1 issue moves at 5.25.
    const first = await receiveOk(core, order.id, {
      effectiveDate: '2026-01-10T00:00:00Z',
      lines: [{ lineId: order.lines[0]!.id, quantity: 10 }],
    })
    expect(first).toMatchObject({
      purchaseOrderNumber: order.number,
      purchaseOrderStatus: 'PartiallyReceived',
      effectiveDate: '2026-01-10T00:00:00.000Z',
      lines: [
        {
          lineId: order.lines[0]!.id,
          productId: shop.steel.id,
          quantity: 10,
          unitCost: 4.5,
          reversalEntryId: null,
        },
      ],
      reversedAt: null,
    })
    expect(await stockOf(core, shop.steel.id)).toMatchObject({ onHand: 15, unitCost: 5.25, value: 78.75 })
    const ledger = await ledgerOf(core, shop.steel.id)
    expect(ledger.map((e) => [e.type, e.quantity, e.unitCost])).toEqual([
      ['Receipt', 10, 6],
      ['PurchaseReceipt', 10, 4.5],
      ['Issue', -5, 5.25],
    ])
    expect(ledger[1]).toMatchObject({ id: first.lines[0]!.ledgerEntryId, reference: order.number })
    // The bolts in two receipts, named by product.
    await receiveOk(core, order.id, { lines: [{ productId: shop.bolt.id, quantity: 60 }] })
    const last = await receiveOk(core, order.id, { lines: [{ productId: shop.bolt.id, quantity: 40 }] })
    expect(last.purchaseOrderStatus).toBe('Received')
    expect(await stockOf(core, shop.bolt.id)).toMatchObject({ onHand: 100, unitCost: 0.3, value: 30 })
    const received = await getOrder(core, order.id)
    expect(received).toMatchObject({
      status: 'Received',
      receivedAt: expect.any(String),
      receivedTotal: 75,
      total: 75,
      lines: [
        { receivedQuantity: 10, outstandingQuantity: 0 },
        { receivedQuantity: 100, outstandingQuantity: 0 },
      ],
    })
    expect(events.map((e) => [e.type, 'status' in e.payload ? e.payload.status : undefined])).toEqual([
      ['PurchaseOrderSubmitted', undefined],
      ['PurchaseOrderReceived', 'PartiallyReceived'],
      ['PurchaseOrderReceived', 'PartiallyReceived'],
      ['PurchaseOrderReceived', 'Received'],
    ])
    expect(events[1]).toMatchObject({
      businessId: owner.org.businessId,
      userId: owner.org.userId,
      payload: {
        purchaseOrderId: order.id,
        number: order.number,
        supplierId: shop.supplierId,
        receiptId: first.id,
        lines: [{ productId: shop.steel.id, quantity: 10 }],
      },
    })
    const receipts = await core({ method: 'GET', url: `/api/v1/purchase-orders/${order.id}/receipts` })
    expect(receipts.json()).toMatchObject({ totalCount: 3, data: [{ id: first.id }, {}, { id: last.id }] })
    const notifications = JSON.stringify(
      (await core({ method: 'GET', url: '/api/notifications/user' })).json(),
    )
    expect(notifications).toContain('Purchase order received')
    // Received -> Closed; a Closed order takes no receipt and no reversal.
    expect(await step(core, order.id, 'close')).toMatchObject({
      status: 'Closed',
      closedAt: expect.any(String),
    })
    const more = await receiveGoods(core, order.id, { lines: [{ productId: shop.bolt.id, quantity: 1 }] })
    expect([more.statusCode, more.json().code]).toEqual([409, 'invalid_status_transition'])
    const reversed = await core({
      method: 'POST',
      url: `/api/v1/purchase-orders/${order.id}/receipts/${last.id}/reverse`,
      payload: {},
    })
    expect([reversed.statusCode, reversed.json().code]).toEqual([409, 'invalid_status_transition'])
  })

  it('refuses more than ordered unless the tolerance setting allows it (409 naming the row)', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { core } = owner
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(core, shop)
    const over = await receiveGoods(core, order.id, {
      lines: [
        { productId: shop.bolt.id, quantity: 100 },
        { productId: shop.steel.id, quantity: 10.0001 },
      ],
    })
    expect([over.statusCode, over.json().code, fieldsOf(over)]).toEqual([
      409,
      'over_receipt',
      ['lines.1.quantity'],
    ])
    expect(await ledgerOf(core, shop.bolt.id)).toHaveLength(0)
    const saved = await core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'purchasing.receiptTolerancePercent': '10' },
    })
    expect(saved.statusCode).toBe(200)
    await receiveOk(core, order.id, { lines: [{ productId: shop.steel.id, quantity: 6 }] })
    const beyond = await receiveGoods(core, order.id, {
      lines: [{ productId: shop.steel.id, quantity: 5.0001 }],
    })
    expect([beyond.statusCode, fieldsOf(beyond)]).toEqual([409, ['lines.0.quantity']])
    const within = await receiveOk(core, order.id, { lines: [{ productId: shop.steel.id, quantity: 5 }] })
    expect(within.purchaseOrderStatus).toBe('PartiallyReceived')
    expect((await getOrder(core, order.id)).lines[0]).toMatchObject({
      receivedQuantity: 11,
      outstandingQuantity: 0,
    })
    const notANumber = await core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'purchasing.receiptTolerancePercent': 'lots' },
    })
    expect([notANumber.statusCode, fieldsOf(notANumber)]).toEqual([
      400,
      ['purchasing.receiptTolerancePercent'],
    ])
  })

  it('reverses a receipt with reversing entries, moving the order back; never twice, never below zero', async () => {
    const events = captureEvents()
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { core } = owner
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(core, shop)
    const first = await receiveOk(core, order.id, {
      effectiveDate: '2026-03-01T00:00:00Z',
      lines: [{ productId: shop.steel.id, quantity: 4 }],
    })
    const cancel = await core({ method: 'POST', url: `/api/v1/purchase-orders/${order.id}/cancel` })
    expect([cancel.statusCode, cancel.json().message]).toEqual([
      409,
      'A purchase order cannot move from PartiallyReceived to Cancelled; only Draft or Submitted can.',
    ])
    const reverse = (id: string, payload: object = {}) =>
      core({ method: 'POST', url: `/api/v1/purchase-orders/${order.id}/receipts/${id}/reverse`, payload })
    const early = await reverse(first.id, { effectiveDate: '2026-02-28T00:00:00Z' })
    expect([early.statusCode, fieldsOf(early)]).toEqual([400, ['effectiveDate']])
    const future = await reverse(first.id, { effectiveDate: '2999-01-01T00:00:00Z' })
    expect([future.statusCode, fieldsOf(future)]).toEqual([400, ['effectiveDate']])
    const undone = (await reverse(first.id, { effectiveDate: '2026-03-02T00:00:00Z' })).json().data as Receipt
    expect(undone).toMatchObject({
      purchaseOrderStatus: 'Submitted',
      reversedAt: expect.any(String),
      reversalEffectiveDate: '2026-03-02T00:00:00.000Z',
      lines: [{ quantity: 4, reversalEntryId: expect.any(String) }],
    })
    expect((await ledgerOf(core, shop.steel.id)).map((e) => [e.type, e.quantity, e.unitCost])).toEqual([
      ['PurchaseReceipt', 4, 4.5],
      ['PurchaseReceiptReversal', -4, 4.5],
    ])
    expect((await getOrder(core, order.id)).lines[0]).toMatchObject({ receivedQuantity: 0 })
    const twice = await reverse(first.id)
    expect([twice.statusCode, twice.json().code]).toEqual([409, 'purchase_receipt_reversed'])
    // Received in full, then 8 of the 10 issued: taking the 10 back out would leave -8.
    await receiveOk(core, order.id, { lines: [{ productId: shop.bolt.id, quantity: 100 }] })
    const full = await receiveOk(core, order.id, { lines: [{ productId: shop.steel.id, quantity: 10 }] })
    expect(full.purchaseOrderStatus).toBe('Received')
    await issue(core, shop.steel.id, 8)
    const short = await reverse(full.id)
    expect([short.statusCode, short.json().code, fieldsOf(short)]).toEqual([
      409,
      'stock_shortfall',
      ['lines.0.quantity'],
    ])
    expect(await getOrder(core, order.id)).toMatchObject({ status: 'Received' })
    await receive(core, shop.steel.id, 8, 4.5)
    expect(((await reverse(full.id)).json().data as Receipt).purchaseOrderStatus).toBe('PartiallyReceived')
    expect(await stockOf(core, shop.steel.id)).toMatchObject({ onHand: 0 })
    // Short-close what stays outstanding.
    expect(await step(core, order.id, 'close')).toMatchObject({ status: 'Closed' })
    expect(events.filter((e) => e.type === 'PurchaseOrderReceived')).toHaveLength(3)
    const unknown = await reverse(randomUUID())
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'purchase_receipt_not_found'])
  })

  it('answers 400 naming the row, 409 for a Draft or an archived product', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { core } = owner
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(core, shop)
    const [steelLine, boltLine] = order.lines
    const cases: [Record<string, unknown>, string[]][] = [
      [{ lines: [] }, ['lines']],
      [{ lines: [{ quantity: 1 }] }, ['lines.0']],
      [{ lines: [{ lineId: steelLine!.id, productId: shop.steel.id, quantity: 1 }] }, ['lines.0']],
      [{ lines: [{ lineId: randomUUID(), quantity: 1 }] }, ['lines.0.lineId']],
      [{ lines: [{ productId: randomUUID(), quantity: 1 }] }, ['lines.0.productId']],
      [
        {
          lines: [
            { lineId: steelLine!.id, quantity: 1 },
            { productId: shop.steel.id, quantity: 1 },
          ],
        },
        ['lines.1.productId'],
      ],
      [{ lines: [{ lineId: boltLine!.id, quantity: 0 }] }, ['lines.0.quantity']],
      [{ lines: [{ lineId: boltLine!.id, quantity: 1.00001 }] }, ['lines.0.quantity']],
      [{ lines: [{ lineId: boltLine!.id, quantity: 1e10 }] }, ['lines.0.quantity']],
      [
        { effectiveDate: '2999-01-01T00:00:00Z', lines: [{ lineId: boltLine!.id, quantity: 1 }] },
        ['effectiveDate'],
      ],
      [{ effectiveDate: 'yesterday', lines: [{ lineId: boltLine!.id, quantity: 1 }] }, ['effectiveDate']],
    ]
    for (const [payload, fields] of cases) {
      const response = await receiveGoods(core, order.id, payload)
      expect([response.statusCode, fieldsOf(response)], JSON.stringify(payload)).toEqual([400, fields])
    }
    const draft = await ok<{ id: string }>(core, 'POST', '/api/v1/purchase-orders', {
      supplierId: shop.supplierId,
      lines: [{ productId: shop.steel.id, quantity: 1 }],
    })
    const early = await receiveGoods(core, draft.id, { lines: [{ productId: shop.steel.id, quantity: 1 }] })
    expect([early.statusCode, early.json().code]).toEqual([409, 'invalid_status_transition'])
    expect(early.json().message).toContain('Draft')
    // Steel has no stock movement yet, so it may still become a Service, which holds no stock.
    await ok(core, 'PUT', `/api/v1/products/${shop.steel.id}`, {
      sku: shop.steel.sku,
      name: shop.steel.name,
      type: 'Service',
    })
    const service = await receiveGoods(core, order.id, { lines: [{ productId: shop.steel.id, quantity: 1 }] })
    expect([service.statusCode, service.json().code, fieldsOf(service)]).toEqual([
      409,
      'service_holds_no_stock',
      ['lines.0.quantity'],
    ])
    await ok(core, 'DELETE', `/api/v1/products/${shop.bolt.id}`)
    const archived = await receiveGoods(core, order.id, { lines: [{ productId: shop.bolt.id, quantity: 1 }] })
    expect([archived.statusCode, archived.json().code, fieldsOf(archived)]).toEqual([
      409,
      'product_archived',
      ['lines.0.quantity'],
    ])
    expect(await getOrder(core, order.id)).toMatchObject({ status: 'Submitted' })
  })
})
