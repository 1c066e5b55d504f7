import { randomUUID } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import { fieldsOf } from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { ledgerOf, ok, receive, stockOf } from '../../manufacturing/manufacturing.fixtures.js'
import {
  createTransfer,
  daysFromNow,
  headAndBranch,
  productPair,
  receiveTransfer,
  ship,
  type TransferOrder,
} from './transfer-orders.fixtures.js'

const ctx = useTestContext()

describe('transfer orders', () => {
  it('ships at the moving average, is in transit, and is received at the cost it left with (worked example)', async () => {
    const events: DomainEvent[] = []
    onTestFinished(
      ctx.services.events.on('transfer-orders-test', async (_db, _schema, event) => {
        if (event.type.startsWith('TransferOrder')) events.push(event)
      }),
    )
    const { head, headId, branch, branchId } = await headAndBranch(ctx)
    // 10 @ 5 then 10 @ 7: the moving average is 6.
    const { source, destination } = await productPair(head, branch, 10, 5, daysFromNow(-10))
    await receive(head, source.id, 10, 7, daysFromNow(-9))
    const draft = await createTransfer(head, {
      destinationBusinessId: branchId,
      notes: 'Weekly top-up',
      lines: [{ productId: source.id, quantity: 8 }],
    })
    expect(draft).toMatchObject({
      number: 'TO-000001',
      status: 'Draft',
      direction: 'Outgoing',
      sourceBusinessId: headId,
      destinationBusinessId: branchId,
      valueInTransit: 0,
      lines: [{ productId: source.id, destinationProductId: destination.id, quantity: 8, unitCost: null }],
    })
    // The branch sees the same transfer as Incoming.
    expect(await ok<TransferOrder>(branch, 'GET', `/api/v1/transfer-orders/${draft.id}`)).toMatchObject({
      id: draft.id,
      direction: 'Incoming',
    })

    const shippedAt = daysFromNow(-3)
    const shipped = await ship(head, draft.id, { effectiveDate: shippedAt })
    expect(shipped).toMatchObject({
      status: 'Shipped',
      shippedAt,
      valueInTransit: 48,
      lines: [
        { unitCost: 6, quantityShipped: 8, quantityReceived: 0, quantityInTransit: 8, valueInTransit: 48 },
      ],
    })
    expect(await stockOf(head, source.id)).toMatchObject({ onHand: 12, unitCost: 6, value: 72 })
    expect((await ledgerOf(head, source.id)).at(-1)).toMatchObject({
      type: 'TransferIssue',
      quantity: -8,
      unitCost: 6,
      effectiveDate: shippedAt,
    })
    // Before the ship date the source still had the 20.
    expect(await stockOf(head, source.id, daysFromNow(-4))).toMatchObject({ onHand: 20 })

    const inTransit = await head({ method: 'GET', url: '/api/v1/transfer-orders/in-transit' })
    expect(inTransit.json()).toMatchObject({
      totalCount: 1,
      data: [
        { transferOrderId: draft.id, direction: 'Outgoing', quantityInTransit: 8, unitCost: 6, value: 48 },
      ],
    })
    const incoming = await branch({
      method: 'GET',
      url: '/api/v1/transfer-orders/in-transit?direction=incoming',
    })
    expect(incoming.json()).toMatchObject({ totalCount: 1, data: [{ direction: 'Incoming', value: 48 }] })

    // The dashboard shows it in transit on both sides.
    const transfersOn = async (core: typeof head) =>
      (await core({ url: '/api/v1/insights/dashboard/summary' })).json().data.transfers
    expect(await transfersOn(head)).toEqual({
      outgoingInTransit: 1,
      outgoingValueInTransit: 48,
      incomingInTransit: 0,
      incomingValueInTransit: 0,
    })
    expect(await transfersOn(branch)).toMatchObject({ incomingInTransit: 1, incomingValueInTransit: 48 })

    const line = shipped.lines[0]!
    const partial = await receiveTransfer(branch, draft.id, {
      effectiveDate: daysFromNow(-2),
      lines: [{ lineId: line.id, quantity: 5 }],
    })
    expect(partial).toMatchObject({
      status: 'PartiallyReceived',
      receivedAt: null,
      valueInTransit: 18,
      lines: [{ quantityReceived: 5, quantityInTransit: 3 }],
      receipts: [{ lines: [{ lineId: line.id, quantity: 5 }] }],
    })
    expect(await stockOf(branch, destination.id)).toMatchObject({ onHand: 5, unitCost: 6, value: 30 })

    const done = await receiveTransfer(branch, draft.id, { effectiveDate: daysFromNow(-1) })
    expect(done).toMatchObject({ status: 'Received', valueInTransit: 0, lines: [{ quantityInTransit: 0 }] })
    expect(done.receipts).toHaveLength(2)
    expect(await stockOf(branch, destination.id)).toMatchObject({ onHand: 8, unitCost: 6, value: 48 })
    expect((await ledgerOf(branch, destination.id)).map((e) => [e.type, e.quantity, e.unitCost])).toEqual([
      ['TransferReceipt', 5, 6],
      ['TransferReceipt', 3, 6],
    ])
    const empty = await head({ method: 'GET', url: '/api/v1/transfer-orders/in-transit' })
    expect(empty.json()).toMatchObject({ totalCount: 0, data: [] })

    // The SQL console shows the transfer to both businesses, each on its side.
    const query = async (core: typeof head, sql: string) => {
      const response = await core({ method: 'POST', url: '/api/ai-studio/query', payload: { query: sql } })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().data.rows
    }
    expect(await query(head, 'SELECT number, direction, status FROM transfer_orders')).toEqual([
      ['TO-000001', 'Outgoing', 'Received'],
    ])
    expect(
      await query(
        branch,
        'SELECT direction, quantity, quantity_received, quantity_in_transit FROM transfer_order_lines',
      ),
    ).toEqual([['Incoming', '8.0000', '8.0000', '0']])
    // Both sides are told of every step.
    const notes = async (core: typeof head) =>
      (
        (await core({ url: '/api/notifications/user' })).json().data as {
          title: string
          entityType: string
          entityId: string
        }[]
      )
        .filter((n) => n.entityType === 'TransferOrder')
        .map((n) => [n.title, n.entityId])
    const steps = [
      ['Transfer received', draft.id],
      ['Transfer partly received', draft.id],
      ['Transfer shipped', draft.id],
    ]
    expect(await notes(head)).toEqual(steps)
    expect(await notes(branch)).toEqual(steps)
    const payload = {
      transferOrderId: draft.id,
      number: 'TO-000001',
      sourceBusinessId: headId,
      destinationBusinessId: branchId,
    }
    expect(
      events.filter((e) => (e.payload as { transferOrderId: string }).transferOrderId === draft.id),
    ).toEqual([
      { type: 'TransferOrderShipped', businessId: headId, userId: expect.any(String), payload },
      {
        type: 'TransferOrderReceived',
        businessId: branchId,
        userId: expect.any(String),
        payload: { ...payload, status: 'PartiallyReceived' },
      },
      {
        type: 'TransferOrderReceived',
        businessId: branchId,
        userId: expect.any(String),
        payload: { ...payload, status: 'Received' },
      },
    ])
  })

  it('lists by side and filters', async () => {
    const { head, branch, branchId, headId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 10, 2, daysFromNow(-5))
    const back = await productPair(branch, head, 10, 3, daysFromNow(-5))
    const out = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    const inbound = await createTransfer(branch, {
      destinationBusinessId: headId,
      lines: [{ productId: back.source.id, quantity: 2 }],
    })
    await ship(branch, inbound.id)
    const all = (await head({ method: 'GET', url: '/api/v1/transfer-orders' })).json()
    expect(all.totalCount).toBe(2)
    const outgoing = (await head({ method: 'GET', url: '/api/v1/transfer-orders?direction=Outgoing' })).json()
    expect(outgoing).toMatchObject({ totalCount: 1, data: [{ id: out.id, direction: 'Outgoing' }] })
    const incoming = (await head({ method: 'GET', url: '/api/v1/transfer-orders?direction=1' })).json()
    expect(incoming).toMatchObject({ totalCount: 1, data: [{ id: inbound.id, direction: 'Incoming' }] })
    const filtered = await head({
      method: 'GET',
      url: `/api/v1/transfer-orders?$filter=${encodeURIComponent("status eq 'Shipped'")}&$orderby=number desc`,
    })
    expect(filtered.json()).toMatchObject({ totalCount: 1, data: [{ id: inbound.id }] })
    const badFilter = await head({
      method: 'GET',
      url: `/api/v1/transfer-orders?$filter=${encodeURIComponent('nope eq 1')}`,
    })
    expect(badFilter.statusCode).toBe(400)
    const badDirection = await head({ method: 'GET', url: '/api/v1/transfer-orders?direction=Sideways' })
    expect({ status: badDirection.statusCode, fields: fieldsOf(badDirection) }).toEqual({
      status: 400,
      fields: ['direction'],
    })
  })

  it('edits only a Draft, cancels only a Draft, and each side does only its part (409)', async () => {
    const { head, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 10, 2, daysFromNow(-5))
    const other = await productPair(head, branch, 10, 4, daysFromNow(-5))
    const draft = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    const body = {
      destinationBusinessId: branchId,
      lines: [
        { productId: other.source.id, quantity: 2 },
        { productId: source.id, destinationProductId: other.destination.id, quantity: 3 },
      ],
    }
    const edited = await ok<TransferOrder>(head, 'PUT', `/api/v1/transfer-orders/${draft.id}`, body)
    expect(edited.lines.map((l) => [l.lineNumber, l.productId, l.destinationProductId, l.quantity])).toEqual([
      [1, other.source.id, other.destination.id, 2],
      [2, source.id, other.destination.id, 3],
    ])
    const branchEdits = await branch({
      method: 'PUT',
      url: `/api/v1/transfer-orders/${draft.id}`,
      payload: body,
    })
    expect([branchEdits.statusCode, branchEdits.json().code]).toEqual([409, 'transfer_order_wrong_business'])
    const branchShips = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${draft.id}/ship`,
      payload: {},
    })
    expect([branchShips.statusCode, branchShips.json().code]).toEqual([409, 'transfer_order_wrong_business'])
    const branchCancels = await branch({ method: 'POST', url: `/api/v1/transfer-orders/${draft.id}/cancel` })
    expect([branchCancels.statusCode, branchCancels.json().code]).toEqual([
      409,
      'transfer_order_wrong_business',
    ])
    const early = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${draft.id}/receipts`,
      payload: {},
    })
    expect([early.statusCode, early.json().code]).toEqual([409, 'invalid_status_transition'])

    await ship(head, draft.id)
    const again = await head({ method: 'POST', url: `/api/v1/transfer-orders/${draft.id}/ship`, payload: {} })
    expect([again.statusCode, again.json().code]).toEqual([409, 'invalid_status_transition'])
    const late = await head({ method: 'PUT', url: `/api/v1/transfer-orders/${draft.id}`, payload: body })
    expect([late.statusCode, late.json().code]).toEqual([409, 'transfer_order_not_editable'])
    const cancelShipped = await head({ method: 'POST', url: `/api/v1/transfer-orders/${draft.id}/cancel` })
    expect([cancelShipped.statusCode, cancelShipped.json().code]).toEqual([409, 'invalid_status_transition'])
    const headReceives = await head({
      method: 'POST',
      url: `/api/v1/transfer-orders/${draft.id}/receipts`,
      payload: {},
    })
    expect([headReceives.statusCode, headReceives.json().code]).toEqual([
      409,
      'transfer_order_wrong_business',
    ])
    await receiveTransfer(branch, draft.id)
    const twice = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${draft.id}/receipts`,
      payload: {},
    })
    expect([twice.statusCode, twice.json().code]).toEqual([409, 'invalid_status_transition'])

    const second = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    expect(second.number).toBe('TO-000002')
    const cancelled = await ok<TransferOrder>(head, 'POST', `/api/v1/transfer-orders/${second.id}/cancel`)
    expect(cancelled).toMatchObject({ status: 'Cancelled', cancelledAt: expect.any(String) })
    const shipCancelled = await head({
      method: 'POST',
      url: `/api/v1/transfer-orders/${second.id}/ship`,
      payload: {},
    })
    expect([shipCancelled.statusCode, shipCancelled.json().code]).toEqual([409, 'invalid_status_transition'])
  })

  it('never leaves either side negative at any point in time, and receipts follow the shipment', async () => {
    const { head, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 10, 2, daysFromNow(-5))
    const order = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 6 }],
    })
    // Before the stock arrived, the head office had nothing to ship.
    const tooEarly = await head({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/ship`,
      payload: { effectiveDate: daysFromNow(-6) },
    })
    expect({ status: tooEarly.statusCode, code: tooEarly.json().code, fields: fieldsOf(tooEarly) }).toEqual({
      status: 409,
      code: 'stock_shortfall',
      fields: ['lines.0.quantity'],
    })
    expect(await stockOf(head, source.id)).toMatchObject({ onHand: 10 })
    // An issue of 6 later on leaves only 4: the back-dated transfer of 6 would take it below zero.
    await ok(head, 'POST', `/api/v1/products/${source.id}/stock-movements`, { type: 'Issue', quantity: 6 })
    const backDated = await head({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/ship`,
      payload: { effectiveDate: daysFromNow(-2) },
    })
    expect([backDated.statusCode, fieldsOf(backDated)]).toEqual([409, ['lines.0.quantity']])
    await receive(head, source.id, 10, 2, daysFromNow(-4))
    const shipped = await ship(head, order.id, { effectiveDate: daysFromNow(-2) })
    const lineId = shipped.lines[0]!.id
    const beforeShip = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/receipts`,
      payload: { effectiveDate: daysFromNow(-3) },
    })
    expect([beforeShip.statusCode, fieldsOf(beforeShip)]).toEqual([400, ['effectiveDate']])
    const future = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/receipts`,
      payload: { effectiveDate: daysFromNow(2) },
    })
    expect([future.statusCode, fieldsOf(future)]).toEqual([400, ['effectiveDate']])
    const tooMuch = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/receipts`,
      payload: { lines: [{ lineId, quantity: 7 }] },
    })
    expect({ status: tooMuch.statusCode, code: tooMuch.json().code, fields: fieldsOf(tooMuch) }).toEqual({
      status: 409,
      code: 'receipt_exceeds_in_transit',
      fields: ['lines.0.quantity'],
    })
    const badLines = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/receipts`,
      payload: {
        lines: [
          { lineId: randomUUID(), quantity: 1 },
          { lineId, quantity: 1.00001 },
          { lineId, quantity: 1 },
        ],
      },
    })
    expect([badLines.statusCode, fieldsOf(badLines).sort()]).toEqual([
      400,
      ['lines.0.lineId', 'lines.1.quantity', 'lines.2.lineId'],
    ])
    const zero = await branch({
      method: 'POST',
      url: `/api/v1/transfer-orders/${order.id}/receipts`,
      payload: { lines: [{ lineId, quantity: 0 }] },
    })
    expect([zero.statusCode, fieldsOf(zero)]).toEqual([400, ['lines.0.quantity']])
  })
})
