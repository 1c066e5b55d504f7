import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { useOwnerSession, useTestContext } from '../../../../test/harness.js'
import { shipment } from '../../delivery/plans/plans.fixtures.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct, ledgerOf, ok, receive, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import {
  deliveredOrder,
  moveReturn,
  orderOf,
  type Return,
  requestedReturn,
  requestReturn,
} from './returns.fixtures.js'

const ctx = useTestContext()
const owner = useOwnerSession(ctx)
const other = useOwnerSession(ctx)

describe('returns', () => {
  it('takes goods back into stock back-dated, at the cost they left with, and credits the order', async () => {
    const { product, order, shipment: carrier } = await deliveredOrder(ctx, owner)
    // The average moves after the goods left (5 more at 8): the return still comes back at 2.
    const later = await receive(owner.core, product.id, 5, 8)
    const rma = await requestedReturn(owner.core, {
      shipmentId: carrier.id,
      lines: [{ productId: product.id, quantity: 3 }],
    })
    expect(rma).toMatchObject({ status: 'Requested', orderId: order.id, value: 15, credited: false })
    expect(rma.number).toMatch(/^RMA-\d{6}$/)
    expect(rma.lines).toEqual([
      expect.objectContaining({ productId: product.id, quantity: 3, unitPrice: 5, unitCost: 2, value: 15 }),
    ])
    expect((await orderOf(owner.core, order.id)).returnedValue).toBe(0)

    const leftAt = new Date(rma.lines[0]!.leftAt).getTime()
    const early = await moveReturn(owner.core, rma.id, 'receive', {
      receivedAt: new Date(leftAt - 60_000).toISOString(),
    })
    expect(early.statusCode).toBe(400)
    expect(fieldsOf(early)).toEqual(['receivedAt'])
    // Back-dated between the dispatch and the later receipt.
    const receivedAt = new Date(
      Math.floor((leftAt + new Date(later.effectiveDate).getTime()) / 2),
    ).toISOString()
    const received = await moveReturn(owner.core, rma.id, 'receive', { receivedAt })
    expect(received.statusCode, received.body).toBe(200)
    expect(received.json().data).toMatchObject({ status: 'Received', receivedAt, credited: true })

    const ledger = await ledgerOf(owner.core, product.id)
    const back = ledger.filter((e) => e.type === 'SaleReturn')
    expect(back).toEqual([expect.objectContaining({ quantity: 3, unitCost: 2, effectiveDate: receivedAt })])
    // 6 left at 2, 3 back at 2, then 5 at 8: 14 worth 58.
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 14, value: 58 })
    expect((await orderOf(owner.core, order.id)).returnedValue).toBe(15)
    const listed = await ok<Return[]>(owner.core, 'GET', `/api/v1/orders/${order.id}/returns`)
    expect(listed.map((r) => [r.number, r.status])).toEqual([[rma.number, 'Received']])
    const notes = await ok<{ title: string; entityId: string; actionLink: string }[]>(
      owner.core,
      'GET',
      '/api/notifications/user?PageSize=100',
    )
    const about = notes.filter((n) => n.actionLink === `/api/v1/returns/${rma.id}`)
    expect(about.map((n) => [n.title, n.entityId]).sort()).toEqual([
      ['Return received', order.id],
      ['Return requested', order.id],
    ])

    for (const step of ['receive', 'write-off', 'cancel'] as const) {
      const again = await moveReturn(owner.core, rma.id, step, step === 'receive' ? {} : undefined)
      expect({ step, status: again.statusCode, code: again.json().code }).toEqual({
        step,
        status: 409,
        code: 'invalid_status_transition',
      })
    }
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 14 })
  })

  it('returns against an order at most what was delivered, frees a cancelled return and writes off', async () => {
    const { product, order } = await deliveredOrder(ctx, owner, { ordered: 6, shipped: 4 })
    const line = (quantity: number) => ({ orderId: order.id, lines: [{ productId: product.id, quantity }] })
    const tooMany = await requestReturn(owner.core, { reason: 'Wrong size', ...line(5) })
    expect(tooMany.statusCode).toBe(400)
    expect(fieldsOf(tooMany)).toEqual(['lines.0.quantity'])
    const all = await requestedReturn(owner.core, line(4))
    expect(all).toMatchObject({ orderId: order.id, shipmentId: null, value: 20 })
    expect(fieldsOf(await requestReturn(owner.core, { reason: 'More', ...line(1) }))).toEqual([
      'lines.0.quantity',
    ])
    expect((await moveReturn(owner.core, all.id, 'cancel')).json().data.status).toBe('Cancelled')
    const one = await requestedReturn(owner.core, line(1))
    const written = await moveReturn(owner.core, one.id, 'write-off')
    expect(written.json().data).toMatchObject({ status: 'WrittenOff', credited: true })
    expect(await stockOf(owner.core, product.id)).toMatchObject({ onHand: 6 })
    expect((await orderOf(owner.core, order.id)).returnedValue).toBe(5)
    // The owner is told that nothing came back for this credit.
    const told = await ok<{ title: string; message: string; actionLink: string }[]>(
      owner.core,
      'GET',
      '/api/notifications/user?PageSize=100',
    )
    expect(told.filter((n) => n.actionLink === `/api/v1/returns/${one.id}`).map((n) => n.title)).toContain(
      'Return written off',
    )
    const writtenOff = await ok<Return[]>(
      owner.core,
      'GET',
      `/api/v1/returns?$filter=${encodeURIComponent(`orderId eq ${order.id} and status eq 'WrittenOff'`)}`,
    )
    expect(writtenOff.map((r) => r.id)).toEqual([one.id])
    expect((await moveReturn(owner.core, one.id, 'receive', {})).statusCode).toBe(409)
  })

  it('answers 400 naming the field and 409 for a shipment not delivered', async () => {
    const { product, shipment: carrier } = await deliveredOrder(ctx, owner, { ordered: 2, shipped: 2 })
    const undelivered = await createProduct(owner.core, { type: 'FinishedGood' })
    const good = { shipmentId: carrier.id, reason: 'Broken' }
    const bad: [object, string][] = [
      [{ ...good, lines: [{ productId: randomUUID(), quantity: 1 }] }, 'lines.0.productId'],
      [{ ...good, lines: [{ productId: undelivered.id, quantity: 1 }] }, 'lines.0.productId'],
      [{ ...good, lines: [{ productId: product.id, quantity: 3 }] }, 'lines.0.quantity'],
      [{ ...good, lines: [{ productId: product.id, quantity: 0.00001 }] }, 'lines.0.quantity'],
      [{ ...good, lines: [{ productId: product.id, quantity: 'x' }] }, 'lines.0.quantity'],
      [
        {
          ...good,
          lines: [
            { productId: product.id, quantity: 1 },
            { productId: product.id, quantity: 1 },
          ],
        },
        'lines.1.productId',
      ],
      [{ ...good, reason: '  ', lines: [{ productId: product.id, quantity: 1 }] }, 'reason'],
      [{ reason: 'x', lines: [{ productId: product.id, quantity: 1 }] }, 'shipmentId'],
      [{ ...good, orderId: randomUUID(), lines: [{ productId: product.id, quantity: 1 }] }, 'shipmentId'],
      [{ ...good, lines: [] }, 'lines'],
    ]
    for (const [body, field] of bad) {
      const response = await requestReturn(owner.core, body)
      expect({ status: response.statusCode, fields: fieldsOf(response) }, JSON.stringify(body)).toEqual({
        status: 400,
        fields: [field],
      })
    }
    const onTheWay = await deliveredOrder(ctx, owner, { ordered: 1, shipped: 1, deliver: false })
    const notYet = await requestReturn(owner.core, {
      ...good,
      shipmentId: onTheWay.shipment.id,
      lines: [{ productId: onTheWay.product.id, quantity: 1 }],
    })
    expect({ status: notYet.statusCode, code: notYet.json().code }).toEqual({
      status: 409,
      code: 'shipment_not_delivered',
    })
    const rma = await requestedReturn(owner.core, {
      ...good,
      lines: [{ productId: product.id, quantity: 1 }],
    })
    const future = await moveReturn(owner.core, rma.id, 'receive', { receivedAt: '2999-01-01T00:00:00Z' })
    expect(fieldsOf(future)).toEqual(['receivedAt'])
  })

  it("answers 404 for another organisation's shipments, orders and returns", async () => {
    const theirs = await deliveredOrder(ctx, other, { ordered: 1, shipped: 1 })
    const theirReturn = await requestedReturn(other.core, {
      shipmentId: theirs.shipment.id,
      lines: [{ productId: theirs.product.id, quantity: 1 }],
    })
    const lines = [{ productId: theirs.product.id, quantity: 1 }]
    const byShipment = await requestReturn(owner.core, { shipmentId: theirs.shipment.id, reason: 'x', lines })
    expect([byShipment.statusCode, byShipment.json().code]).toEqual([404, 'shipment_not_found'])
    const byOrder = await requestReturn(owner.core, { orderId: theirs.order.id, reason: 'x', lines })
    expect([byOrder.statusCode, byOrder.json().code]).toEqual([404, 'order_not_found'])
    for (const [method, url] of [
      ['GET', `/api/v1/returns/${theirReturn.id}`],
      ['POST', `/api/v1/returns/${theirReturn.id}/receive`],
      ['POST', `/api/v1/returns/${theirReturn.id}/write-off`],
      ['POST', `/api/v1/returns/${theirReturn.id}/cancel`],
      ['GET', `/api/v1/orders/${theirs.order.id}/returns`],
    ] as const) {
      const response = await owner.core({ method, url, ...(url.endsWith('receive') ? { payload: {} } : {}) })
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 })
    }
    expect((await ok<Return>(other.core, 'GET', `/api/v1/returns/${theirReturn.id}`)).status).toBe(
      'Requested',
    )
  })

  it('needs Orders View to read and Orders Modify to change', async () => {
    const s = await shipment(owner.core)
    const id = randomUUID()
    await expectAccess(ctx, owner, 'Orders', 1, [
      { method: 'GET', url: '/api/v1/returns' },
      { method: 'GET', url: `/api/v1/returns/${id}` },
      { method: 'GET', url: `/api/v1/orders/${id}/returns` },
    ])
    await expectAccess(ctx, owner, 'Orders', 2, [
      { method: 'POST', url: '/api/v1/returns', payload: { shipmentId: s.id, reason: 'x', lines: [] } },
      { method: 'POST', url: `/api/v1/returns/${id}/receive`, payload: {} },
      { method: 'POST', url: `/api/v1/returns/${id}/write-off` },
      { method: 'POST', url: `/api/v1/returns/${id}/cancel` },
    ])
  })
})
