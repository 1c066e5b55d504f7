import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createApiKey, fieldsOf } from '../../../../test/fixtures.js'
import { coreAs, ownerSession, useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct } from '../../manufacturing/manufacturing.fixtures.js'
import {
  createTransfer,
  daysFromNow,
  headAndBranch,
  productPair,
  receiveTransfer,
  ship,
} from './transfer-orders.fixtures.js'

const ctx = useTestContext()

describe('transfer orders: input, tenants and credentials', () => {
  it('checks every line and names it (400), and hides other organisations (404)', async () => {
    const { head, headId, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 10, 2, daysFromNow(-5))
    const unmatched = await createProduct(head, { sku: `ONLY-HEAD-${randomUUID().slice(0, 8)}` })
    const service = await createProduct(head, { type: 'Service' })
    const branchOnly = await createProduct(branch)
    const post = (payload: object) => head({ method: 'POST', url: '/api/v1/transfer-orders', payload })
    const lines = await post({
      destinationBusinessId: branchId,
      lines: [
        { productId: unmatched.id, quantity: 1 },
        { productId: branchOnly.id, quantity: 1 },
        { productId: source.id, destinationProductId: source.id, quantity: 1 },
        { productId: service.id, destinationProductId: branchOnly.id, quantity: 1 },
      ],
    })
    expect([lines.statusCode, fieldsOf(lines)]).toEqual([
      400,
      [
        'lines.0.destinationProductId',
        'lines.1.productId',
        'lines.2.destinationProductId',
        'lines.3.productId',
      ],
    ])
    const places = await post({
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1.23456 }],
    })
    expect([places.statusCode, fieldsOf(places)]).toEqual([400, ['lines.0.quantity']])
    const self = await post({ destinationBusinessId: headId, lines: [{ productId: source.id, quantity: 1 }] })
    expect([self.statusCode, fieldsOf(self)]).toEqual([400, ['destinationBusinessId']])
    const none = await post({ destinationBusinessId: branchId, lines: [] })
    expect([none.statusCode, fieldsOf(none)]).toEqual([400, ['lines']])
    const missing = await post({ lines: [{ productId: source.id, quantity: 1 }] })
    expect([missing.statusCode, fieldsOf(missing)]).toEqual([400, ['destinationBusinessId']])

    const stranger = await ownerSession(ctx)
    const elsewhere = await post({
      destinationBusinessId: stranger.org.businessId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([404, 'business_not_found'])
    const order = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    for (const call of [
      { method: 'GET' as const, url: `/api/v1/transfer-orders/${order.id}` },
      {
        method: 'PUT' as const,
        url: `/api/v1/transfer-orders/${order.id}`,
        payload: { destinationBusinessId: branchId, lines: [{ productId: source.id, quantity: 1 }] },
      },
      { method: 'POST' as const, url: `/api/v1/transfer-orders/${order.id}/ship`, payload: {} },
      { method: 'POST' as const, url: `/api/v1/transfer-orders/${order.id}/cancel` },
      { method: 'POST' as const, url: `/api/v1/transfer-orders/${order.id}/receipts`, payload: {} },
    ]) {
      const response = await stranger.core(call)
      expect([response.statusCode, response.json().code], `${call.method} ${call.url}`).toEqual([
        404,
        'transfer_order_not_found',
      ])
    }
    const list = await stranger.core({ method: 'GET', url: '/api/v1/transfer-orders' })
    expect(list.json().totalCount).toBe(0)
    const badId = await head({ method: 'GET', url: '/api/v1/transfer-orders/not-a-uuid' })
    expect([badId.statusCode, fieldsOf(badId)]).toEqual([400, ['transferOrderId']])
  })

  it('works with an API key of each side and needs TransferOrders View or Modify (401, 403)', async () => {
    const { owner, head, branch, branchId } = await headAndBranch(ctx)
    const { source } = await productPair(head, branch, 10, 2, daysFromNow(-5))
    const branchKey = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, branchId, {
        scopes: JSON.stringify({ TransferOrders: 3 }),
      }),
    })
    const order = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 2 }],
    })
    await ship(head, order.id)
    expect(await receiveTransfer(branchKey, order.id)).toMatchObject({
      status: 'Received',
      direction: 'Incoming',
    })

    const draft = await createTransfer(head, {
      destinationBusinessId: branchId,
      lines: [{ productId: source.id, quantity: 1 }],
    })
    const base = `/api/v1/transfer-orders/${draft.id}`
    await expectAccess(ctx, owner, 'TransferOrders', 1, [
      { method: 'GET', url: '/api/v1/transfer-orders' },
      { method: 'GET', url: '/api/v1/transfer-orders/in-transit' },
      { method: 'GET', url: base },
    ])
    await expectAccess(ctx, owner, 'TransferOrders', 2, [
      {
        method: 'POST',
        url: '/api/v1/transfer-orders',
        payload: { destinationBusinessId: branchId, lines: [] },
      },
      { method: 'PUT', url: base, payload: { destinationBusinessId: branchId, lines: [] } },
      { method: 'POST', url: `${base}/ship`, payload: { effectiveDate: daysFromNow(1) } },
      { method: 'POST', url: `${base}/cancel` },
      { method: 'POST', url: `${base}/receipts`, payload: {} },
    ])
  })
})
