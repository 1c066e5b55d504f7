import { describe, expect, it } from 'vitest'
import { ownerSession, useTestContext } from '../../../../test/harness.js'
import { receiveOk, submittedOrder, supplierShop } from './purchase-orders.fixtures.js'

const ctx = useTestContext()

describe('a purchase order’s activity', () => {
  it('is traced in the audit log: each state change with who made it and the states before and after', async () => {
    const owner = await ownerSession(ctx)
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    await receiveOk(owner.core, order.id, { lines: [{ productId: shop.steel.id, quantity: 4 }] })

    const trace = await owner.core({
      url: '/api/v1/audit-log',
      query: { entityType: 'PurchaseOrder', entityId: order.id, $orderby: 'occurredAt asc' },
    })
    expect(trace.statusCode, trace.body).toBe(200)
    const entries = trace.json().data as {
      action: string
      actorType: string
      actorId: string
      changes: Record<string, { before: unknown; after: unknown }>
      payload: Record<string, unknown> | null
    }[]
    // (An Updated entry also records the totals the server computes once the lines are in.)
    const moves = entries.filter((e) => e.action !== 'Updated' && e.payload === null)
    expect(
      moves.map((e) => [e.action, e.changes.status?.before ?? null, e.changes.status?.after ?? null]),
    ).toEqual([
      ['Created', null, 'Draft'],
      ['StatusChanged', 'Draft', 'Submitted'],
      ['StatusChanged', 'Submitted', 'PartiallyReceived'],
    ])
    // The domain events are entries of the order too, with their payloads.
    expect(entries.filter((e) => e.payload !== null).map((e) => e.action)).toEqual([
      'PurchaseOrderSubmitted',
      'PurchaseOrderReceived',
    ])
    expect(new Set(entries.map((e) => `${e.actorType}:${e.actorId}`))).toEqual(
      new Set([`User:${owner.org.userId}`]),
    )
  })
})
