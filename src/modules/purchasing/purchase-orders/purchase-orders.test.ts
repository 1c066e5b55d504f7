import { randomUUID } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  addBusiness,
  businessSession,
  createApiKey,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { expectAccess } from '../../manufacturing/access.fixtures.js'
import { createProduct, ok } from '../../manufacturing/manufacturing.fixtures.js'
import {
  createPurchaseOrder,
  getOrder,
  insertSupplier,
  type PurchaseOrder,
  setTerms,
  step,
  submittedOrder,
  supplierShop,
} from './purchase-orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('purchase orders', () => {
  it('creates a Draft with costs from the supplier terms, totals in numeric, numbered per business', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const order = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      expectedDate: '2026-12-01',
      notes: '  first order ',
      lines: [
        { productId: shop.steel.id, quantity: 3.3333 },
        { productId: shop.bolt.id, quantity: 7, unitCost: 0.123457 },
      ],
    })
    expect(order).toMatchObject({
      number: 'PO-000001',
      status: 'Draft',
      currency: 'EUR',
      expectedDate: '2026-12-01',
      notes: 'first order',
      isOverdue: false,
      supplier: { id: shop.supplierId, name: 'Acme Metals' },
      lines: [
        { lineNumber: 1, productId: shop.steel.id, unitCost: 4.5, lineTotal: 14.9999, receivedQuantity: 0 },
        { lineNumber: 2, unitCost: 0.123457, lineTotal: 0.8642, outstandingQuantity: 7 },
      ],
      total: 15.8641,
      receivedTotal: 0,
    })
    const second = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      currency: 'usd',
      lines: [{ productId: shop.bolt.id, quantity: 1 }],
    })
    expect(second).toMatchObject({ number: 'PO-000002', currency: 'USD', expectedDate: null, total: 0.25 })
    expect(await getOrder(owner.core, order.id)).toEqual(order)
  })

  it('lists with filters on status, supplier and expected date, search and paging', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const other = await insertSupplier(ctx, owner.org.businessId, { name: 'Bolt Brothers' })
    await setTerms(ctx, owner.org.businessId, other, shop.bolt.id, { unitCost: 0.2 })
    const submitted = await submittedOrder(owner.core, shop)
    const draft = await createPurchaseOrder(owner.core, {
      supplierId: other,
      expectedDate: '2027-01-15',
      lines: [{ productId: shop.bolt.id, quantity: 5 }],
    })
    const list = (query: string) =>
      ok<PurchaseOrder[]>(owner.core, 'GET', `/api/v1/purchase-orders?${query}`).then((rows) =>
        rows.map((r) => r.id),
      )
    expect(await list('')).toEqual([draft.id, submitted.id])
    expect(await list("$filter=status eq 'submitted'")).toEqual([submitted.id])
    expect(await list('$filter=status eq 1')).toEqual([submitted.id])
    expect(await list(`$filter=supplierId eq ${other}`)).toEqual([draft.id])
    expect(await list('$filter=expectedDate gt 2026-12-31')).toEqual([draft.id])
    expect(await list('$orderby=expectedDate asc')).toEqual([submitted.id, draft.id])
    expect(await list('$search=brothers')).toEqual([draft.id])
    expect(await list('$search=PO-000001')).toEqual([submitted.id])
    const page = await owner.core({ method: 'GET', url: '/api/v1/purchase-orders?PageSize=1&Page=2' })
    expect(page.json()).toMatchObject({ totalCount: 2, count: 1, data: [{ id: submitted.id }] })
    const bad = await owner.core({ method: 'GET', url: '/api/v1/purchase-orders?$filter=nope eq 1' })
    expect([bad.statusCode, fieldsOf(bad)]).toEqual([400, ['$filter']])
  })

  it('edits and deletes only a Draft; moves through its states, 409 naming both states otherwise', async () => {
    const events: DomainEvent[] = []
    onTestFinished(
      ctx.services.events.on('purchase-orders-test', async (_db, _schema, event) => {
        if (event.type.startsWith('PurchaseOrder')) events.push(event)
      }),
    )
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const order = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      lines: [{ productId: shop.steel.id, quantity: 1 }],
    })
    const edited = await ok<PurchaseOrder>(owner.core, 'PUT', `/api/v1/purchase-orders/${order.id}`, {
      supplierId: shop.supplierId,
      expectedDate: '2026-12-24',
      lines: [
        { productId: shop.bolt.id, quantity: 40 },
        { productId: shop.steel.id, quantity: 2, unitCost: 5 },
      ],
    })
    expect(edited).toMatchObject({ number: order.number, total: 20, expectedDate: '2026-12-24', notes: null })
    expect(edited.lines.map((l) => l.productId)).toEqual([shop.bolt.id, shop.steel.id])
    // Bodiless POSTs accept a JSON content type with no content.
    const submitted = await owner.core({
      method: 'POST',
      url: `/api/v1/purchase-orders/${order.id}/submit`,
      headers: { 'content-type': 'application/json' },
    })
    expect(submitted.json().data).toMatchObject({ status: 'Submitted', submittedAt: expect.any(String) })
    expect(events).toEqual([
      {
        type: 'PurchaseOrderSubmitted',
        businessId: owner.org.businessId,
        userId: owner.org.userId,
        payload: {
          purchaseOrderId: order.id,
          number: order.number,
          supplierId: shop.supplierId,
          expectedDate: '2026-12-24',
        },
      },
    ])
    const notifications = await owner.core({ method: 'GET', url: '/api/notifications/user' })
    expect(JSON.stringify(notifications.json())).toContain('Purchase order submitted')
    for (const call of [
      {
        method: 'PUT' as const,
        payload: { supplierId: shop.supplierId, lines: [{ productId: shop.bolt.id, quantity: 1 }] },
      },
      { method: 'DELETE' as const },
    ]) {
      const refused = await owner.core({ ...call, url: `/api/v1/purchase-orders/${order.id}` })
      expect([refused.statusCode, refused.json().code]).toEqual([409, 'purchase_order_not_editable'])
    }
    for (const path of ['submit', 'close']) {
      const refused = await owner.core({ method: 'POST', url: `/api/v1/purchase-orders/${order.id}/${path}` })
      expect([refused.statusCode, refused.json().code], path).toEqual([409, 'invalid_status_transition'])
      expect(refused.json().message).toContain('Submitted')
    }
    expect(await step(owner.core, order.id, 'cancel')).toMatchObject({
      status: 'Cancelled',
      cancelledAt: expect.any(String),
    })
    const again = await owner.core({ method: 'POST', url: `/api/v1/purchase-orders/${order.id}/cancel` })
    expect([again.statusCode, again.json().message]).toEqual([
      409,
      'A purchase order cannot move from Cancelled to Cancelled; only Draft or Submitted can.',
    ])
    const draft = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      lines: [{ productId: shop.steel.id, quantity: 1 }],
    })
    expect(await ok(owner.core, 'DELETE', `/api/v1/purchase-orders/${draft.id}`)).toBe(true)
    const gone = await owner.core({ method: 'GET', url: `/api/v1/purchase-orders/${draft.id}` })
    expect([gone.statusCode, gone.json().code]).toEqual([404, 'purchase_order_not_found'])
  })

  it('answers 400 naming each invalid field, for both credential kinds', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const apiCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId),
    })
    const shop = await supplierShop(ctx, owner)
    const businessId = owner.org.businessId
    const inactive = await insertSupplier(ctx, businessId, { isActive: false })
    const deleted = await insertSupplier(ctx, businessId, { deleted: true })
    const service = await createProduct(owner.core, { name: 'Consulting', type: 'Service' })
    const archived = await createProduct(owner.core, { name: 'Old' })
    await ok(owner.core, 'DELETE', `/api/v1/products/${archived.id}`)
    const foreign = await createProduct((await sharedOrganisation(ctx, 'another')).core, { name: 'Theirs' })
    const line = { productId: shop.steel.id, quantity: 1 }
    const cases: [Record<string, unknown>, string[]][] = [
      [{ lines: [line] }, ['supplierId']],
      [{ supplierId: inactive, lines: [line] }, ['supplierId']],
      [{ supplierId: deleted, lines: [line] }, ['supplierId']],
      [{ supplierId: randomUUID(), lines: [line] }, ['supplierId']],
      [{ supplierId: shop.supplierId, lines: [] }, ['lines']],
      [{ supplierId: shop.supplierId, currency: 'XXQ', lines: [line] }, ['currency']],
      [{ supplierId: shop.supplierId, expectedDate: '2026-02-30', lines: [line] }, ['expectedDate']],
      [{ supplierId: shop.supplierId, notes: 'a\u0000b', lines: [line] }, ['notes']],
      [{ supplierId: shop.supplierId, lines: [{ ...line, quantity: 0 }] }, ['lines.0.quantity']],
      [{ supplierId: shop.supplierId, lines: [{ ...line, quantity: 1.00001 }] }, ['lines.0.quantity']],
      [{ supplierId: shop.supplierId, lines: [{ ...line, unitCost: 1.0000001 }] }, ['lines.0.unitCost']],
      [{ supplierId: shop.supplierId, lines: [{ ...line, unitCost: -1 }] }, ['lines.0.unitCost']],
      [{ supplierId: shop.supplierId, lines: [{ ...line, quantity: 1e12 }] }, ['lines.0.quantity']],
      [{ supplierId: shop.supplierId, lines: [line, { ...line, quantity: 2 }] }, ['lines.1.productId']],
      [
        { supplierId: shop.supplierId, lines: [{ productId: service.id, quantity: 1, unitCost: 1 }] },
        ['lines.0.productId'],
      ],
      [
        { supplierId: shop.supplierId, lines: [{ productId: archived.id, quantity: 1, unitCost: 1 }] },
        ['lines.0.productId'],
      ],
      [
        { supplierId: shop.supplierId, lines: [{ productId: foreign.id, quantity: 1, unitCost: 1 }] },
        ['lines.0.productId'],
      ],
      // No terms for this product and no unitCost: nothing to default from.
      [
        { supplierId: shop.supplierId, lines: [line, { productId: archived.id, quantity: 1 }] },
        ['lines.1.productId', 'lines.1.unitCost'],
      ],
      [
        {
          supplierId: shop.supplierId,
          lines: Array.from({ length: 200 }, () => ({
            productId: randomUUID(),
            quantity: 999_999_999,
            unitCost: 999_999_999,
          })),
        },
        [],
      ],
    ]
    for (const [payload, fields] of cases) {
      const response = await apiCore({ method: 'POST', url: '/api/v1/purchase-orders', payload })
      expect(response.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400)
      if (fields.length > 0) expect(fieldsOf(response), JSON.stringify(payload).slice(0, 200)).toEqual(fields)
    }
    const order = await createPurchaseOrder(apiCore, { supplierId: shop.supplierId, lines: [line] })
    const badPut = await apiCore({
      method: 'PUT',
      url: `/api/v1/purchase-orders/${order.id}`,
      payload: { supplierId: shop.supplierId, lines: [{ productId: shop.steel.id, quantity: -1 }] },
    })
    expect(fieldsOf(badPut)).toEqual(['lines.0.quantity'])
    const badId = await apiCore({ method: 'GET', url: '/api/v1/purchase-orders/not-a-uuid' })
    expect([badId.statusCode, fieldsOf(badId)]).toEqual([400, ['purchaseOrderId']])
  })

  it('answers 404 for another organisation’s or business’s purchase order', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const order = await submittedOrder(owner.core, shop)
    const stranger = await sharedOrganisation(ctx, 'another')
    const branch = coreAs(ctx, {
      accessToken: owner.signedIn.accessToken,
      businessId: await addBusiness(ctx, owner.org.businessId),
    })
    const receiptId = randomUUID()
    for (const core of [stranger.core, branch]) {
      for (const id of [order.id, randomUUID()]) {
        for (const call of [
          { method: 'GET' as const, url: `/api/v1/purchase-orders/${id}` },
          {
            method: 'PUT' as const,
            url: `/api/v1/purchase-orders/${id}`,
            payload: {
              supplierId: shop.supplierId,
              lines: [{ productId: shop.steel.id, quantity: 1, unitCost: 1 }],
            },
          },
          { method: 'DELETE' as const, url: `/api/v1/purchase-orders/${id}` },
          { method: 'POST' as const, url: `/api/v1/purchase-orders/${id}/submit` },
          { method: 'POST' as const, url: `/api/v1/purchase-orders/${id}/cancel` },
          { method: 'POST' as const, url: `/api/v1/purchase-orders/${id}/close` },
          { method: 'GET' as const, url: `/api/v1/purchase-orders/${id}/receipts` },
          {
            method: 'POST' as const,
            url: `/api/v1/purchase-orders/${id}/receipts`,
            payload: { lines: [{ productId: shop.steel.id, quantity: 1 }] },
          },
          {
            method: 'POST' as const,
            url: `/api/v1/purchase-orders/${id}/receipts/${receiptId}/reverse`,
            payload: {},
          },
        ]) {
          const response = await core(call)
          expect([response.statusCode, response.json().code], `${call.method} ${call.url}`).toEqual([
            404,
            'purchase_order_not_found',
          ])
        }
      }
      // Another business's supplier cannot be ordered from.
      const foreignSupplier = await core({
        method: 'POST',
        url: '/api/v1/purchase-orders',
        payload: {
          supplierId: shop.supplierId,
          lines: [{ productId: randomUUID(), quantity: 1, unitCost: 1 }],
        },
      })
      expect(fieldsOf(foreignSupplier)).toContain('supplierId')
    }
    const list = await stranger.core({ method: 'GET', url: '/api/v1/purchase-orders' })
    expect(list.json()).toMatchObject({ totalCount: 0 })
  })

  it('needs PurchaseOrders View to read, Modify to change and Delete to delete', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const draft = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      lines: [{ productId: shop.steel.id, quantity: 1 }],
    })
    const order = await submittedOrder(owner.core, shop)
    const body = { supplierId: shop.supplierId, lines: [{ productId: shop.steel.id, quantity: 1 }] }
    await expectAccess(ctx, owner, 'PurchaseOrders', 1, [
      { method: 'GET', url: '/api/v1/purchase-orders' },
      { method: 'GET', url: `/api/v1/purchase-orders/${order.id}` },
      { method: 'GET', url: `/api/v1/purchase-orders/${order.id}/receipts` },
    ])
    await expectAccess(ctx, owner, 'PurchaseOrders', 2, [
      { method: 'POST', url: '/api/v1/purchase-orders', payload: body },
      { method: 'PUT', url: `/api/v1/purchase-orders/${draft.id}`, payload: body },
      { method: 'POST', url: `/api/v1/purchase-orders/${draft.id}/submit` },
      { method: 'POST', url: `/api/v1/purchase-orders/${order.id}/cancel` },
      { method: 'POST', url: `/api/v1/purchase-orders/${order.id}/close` },
      { method: 'POST', url: '/api/v1/purchase-orders/from-reorder-suggestions', payload: {} },
      {
        method: 'POST',
        url: `/api/v1/purchase-orders/${order.id}/receipts`,
        payload: { lines: [{ productId: shop.steel.id, quantity: 1 }] },
      },
      {
        method: 'POST',
        url: `/api/v1/purchase-orders/${order.id}/receipts/${randomUUID()}/reverse`,
        payload: {},
      },
    ])
    const other = await createPurchaseOrder(owner.core, body)
    await expectAccess(ctx, owner, 'PurchaseOrders', 4, [
      { method: 'DELETE', url: `/api/v1/purchase-orders/${other.id}` },
    ])
  })
})
