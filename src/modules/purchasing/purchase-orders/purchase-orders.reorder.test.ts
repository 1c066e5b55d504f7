import { randomUUID } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  businessSession,
  fieldsOf,
  schemaOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { loadConfig } from '../../../config.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { createProduct, ok, receive } from '../../manufacturing/manufacturing.fixtures.js'
import { OverdueSweep } from './overdue.service.js'
import {
  createPurchaseOrder,
  insertSupplier,
  type PurchaseOrder,
  setTerms,
  step,
  supplierShop,
} from './purchase-orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

const todayPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

describe('purchase orders: overdue and reorder drafts', () => {
  it('announces a Submitted order past its expected date once, when the list is read', async () => {
    const events: DomainEvent<'PurchaseOrderOverdue'>[] = []
    onTestFinished(
      ctx.services.events.on(`overdue-test-${randomUUID()}`, async (_db, _schema, event) => {
        if (event.type === 'PurchaseOrderOverdue') events.push(event)
      }),
    )
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const late = (expectedDate: string) =>
      createPurchaseOrder(owner.core, {
        supplierId: shop.supplierId,
        expectedDate,
        lines: [{ productId: shop.steel.id, quantity: 1 }],
      })
    const overdue = await step(owner.core, (await late('2020-01-01')).id, 'submit')
    const draft = await late('2020-01-01')
    const future = await step(owner.core, (await late(todayPlus(30))).id, 'submit')
    const list = () => ok<PurchaseOrder[]>(owner.core, 'GET', '/api/v1/purchase-orders')
    const rows = await list()
    expect(rows.find((r) => r.id === overdue.id)).toMatchObject({ isOverdue: true })
    expect(rows.find((r) => r.id === draft.id)).toMatchObject({ isOverdue: false })
    expect(rows.find((r) => r.id === future.id)).toMatchObject({ isOverdue: false })
    await list()
    expect(events).toEqual([
      {
        type: 'PurchaseOrderOverdue',
        businessId: owner.org.businessId,
        userId: null,
        payload: {
          purchaseOrderId: overdue.id,
          number: overdue.number,
          supplierId: shop.supplierId,
          expectedDate: '2020-01-01',
        },
      },
    ])
    const notifications = JSON.stringify(
      (await owner.core({ method: 'GET', url: '/api/notifications/user' })).json(),
    )
    expect(notifications).toContain('Purchase order overdue')
    const filtered = await owner.core({
      method: 'GET',
      url: `/api/v1/purchase-orders?$filter=expectedDate lt ${todayPlus(0)} and status eq 'Submitted'`,
    })
    expect(filtered.json()).toMatchObject({ totalCount: 1, data: [{ id: overdue.id }] })
  })

  it('announces an overdue order nobody reads, by the sweep that cartage serve runs, once', async () => {
    const events: DomainEvent<'PurchaseOrderOverdue'>[] = []
    onTestFinished(
      ctx.services.events.on(`overdue-sweep-test-${randomUUID()}`, async (_db, _schema, event) => {
        if (event.type === 'PurchaseOrderOverdue') events.push(event)
      }),
    )
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    const order = await createPurchaseOrder(owner.core, {
      supplierId: shop.supplierId,
      expectedDate: '2021-06-30',
      lines: [{ productId: shop.steel.id, quantity: 2 }],
    })
    await step(owner.core, order.id, 'submit')
    // Only this test's organisation: other files share a PostgreSQL database.
    const sweep = new OverdueSweep({ config: loadConfig({}), database: ctx.database, services: ctx.services })
    const schema = await schemaOf(ctx, owner.org.businessId)
    expect(await sweep.runOnce([schema])).toBe(1)
    expect(await sweep.runOnce([schema])).toBe(0)
    expect(events.map((e) => [e.businessId, e.payload.purchaseOrderId, e.payload.expectedDate])).toEqual([
      [owner.org.businessId, order.id, '2021-06-30'],
    ])
    const titles = (
      (await owner.core({ url: '/api/notifications/user' })).json().data as {
        title: string
        entityId: string
      }[]
    ).filter((n) => n.entityId === order.id)
    expect(titles.map((n) => n.title)).toEqual(['Purchase order overdue', 'Purchase order submitted'])
    // A schema that no longer exists is skipped; the others are still swept.
    expect(await sweep.runOnce(['org_gone_missing', schema])).toBe(0)
  })

  it('drafts one order per preferred supplier from the products at or below their reorder level', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const businessId = owner.org.businessId
    const { core } = owner
    const first = await insertSupplier(ctx, businessId, { name: 'A first', currency: 'EUR', leadTimeDays: 3 })
    const second = await insertSupplier(ctx, businessId, { name: 'B second', leadTimeDays: 1 })
    const product = (sku: string, reorderLevel: number) =>
      createProduct(core, { sku: `${sku}-${randomUUID().slice(0, 6)}`, name: sku, reorderLevel })
    const a = await product('A', 10)
    const b = await product('B', 5)
    const c = await product('C', 10)
    const d = await product('D', 3)
    const e = await product('E', 2)
    await receive(core, a.id, 4, 1)
    await receive(core, c.id, 4, 1)
    await receive(core, e.id, 9, 1)
    await setTerms(ctx, businessId, first, a.id, { unitCost: 2, minimumOrderQuantity: 5, isPreferred: true })
    await setTerms(ctx, businessId, first, b.id, {
      unitCost: 3,
      minimumOrderQuantity: 50,
      leadTimeDays: 10,
      isPreferred: true,
    })
    await setTerms(ctx, businessId, second, c.id, { unitCost: 4, isPreferred: true })
    await setTerms(ctx, businessId, first, d.id, { unitCost: 5 })
    await setTerms(ctx, businessId, first, e.id, { unitCost: 6, isPreferred: true })
    const drafts = () =>
      ok<{ purchaseOrders: PurchaseOrder[] }>(
        core,
        'POST',
        '/api/v1/purchase-orders/from-reorder-suggestions',
        {},
      )
    const { purchaseOrders } = await drafts()
    expect(purchaseOrders).toMatchObject([
      {
        status: 'Draft',
        supplierId: first,
        currency: 'EUR',
        expectedDate: todayPlus(10),
        // A: 2 × 10 − 4 = 16 (above its minimum of 5); B: 2 × 5 − 0 = 10, its minimum is 50.
        lines: [
          { productId: a.id, quantity: 16, unitCost: 2 },
          { productId: b.id, quantity: 50, unitCost: 3 },
        ],
        total: 182,
      },
      {
        supplierId: second,
        expectedDate: todayPlus(1),
        lines: [{ productId: c.id, quantity: 16, unitCost: 4 }],
      },
    ])
    // What is on open orders counts: nothing more to draft.
    expect((await drafts()).purchaseOrders).toEqual([])
    // From one supplier: what it sells, preferred or not (D), less what is already on order.
    const fromFirst = await ok<{ purchaseOrders: PurchaseOrder[] }>(
      core,
      'POST',
      '/api/v1/purchase-orders/from-reorder-suggestions',
      { supplierId: first },
    )
    expect(fromFirst.purchaseOrders).toMatchObject([
      { supplierId: first, lines: [{ productId: d.id, quantity: 6 }] },
    ])
    const cancelled = await step(core, purchaseOrders[1]!.id, 'cancel')
    expect(cancelled.status).toBe('Cancelled')
    expect((await drafts()).purchaseOrders).toMatchObject([
      { supplierId: second, lines: [{ productId: c.id }] },
    ])
    for (const supplierId of [randomUUID(), await insertSupplier(ctx, businessId, { isActive: false })]) {
      const refused = await core({
        method: 'POST',
        url: '/api/v1/purchase-orders/from-reorder-suggestions',
        payload: { supplierId },
      })
      expect([refused.statusCode, fieldsOf(refused)]).toEqual([400, ['supplierId']])
    }
  })

  it('keeps the supplier of a Draft from the reorder suggestions editable like any Draft', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const shop = await supplierShop(ctx, owner)
    await ok(owner.core, 'PUT', `/api/v1/products/${shop.steel.id}`, {
      sku: shop.steel.sku,
      name: shop.steel.name,
      type: 'RawMaterial',
      reorderLevel: 1,
    })
    const { purchaseOrders } = await ok<{ purchaseOrders: PurchaseOrder[] }>(
      owner.core,
      'POST',
      '/api/v1/purchase-orders/from-reorder-suggestions',
      { supplierId: null },
    )
    expect(purchaseOrders).toMatchObject([
      { lines: [{ productId: shop.steel.id, quantity: 2, unitCost: 4.5 }] },
    ])
    expect(await step(owner.core, purchaseOrders[0]!.id, 'submit')).toMatchObject({ status: 'Submitted' })
  })
})
