import { randomUUID } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  businessSession,
  createApiKey,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { coreAs, useTestContext } from '../../../../test/harness.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { expectAccess } from '../access.fixtures.js'
import { ledgerOf, ok, receive, stockOf } from '../manufacturing.fixtures.js'
import {
  type BulkRow,
  exactAverage,
  exactBalance,
  exactLedger,
  exactOf,
  exactValue,
  postBulk,
  wholeLedger,
} from '../stock/stock-exact.fixtures.js'
import { createOrder, step, tableShop } from './work-orders.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)

describe('work orders', () => {
  it('freezes the standard cost at release and completes at actual cost (worked example)', async () => {
    const events: DomainEvent[] = []
    onTestFinished(
      ctx.services.events.on('work-order-test', async (_db, _schema, event) => {
        if (event.type === 'WorkOrderCompleted') events.push(event)
      }),
    )
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { core } = owner
    const { table, leg, top, bom } = await tableShop(core)
    const order = await createOrder(core, bom.id, 2)
    expect(order).toMatchObject({
      code: 'WO-000001',
      status: 'Draft',
      standardUnitCost: null,
      product: { id: table.id },
    })
    // Standard at release: 4 × 5 + 50 = 70 a table, 140 for two.
    expect(await step(core, order.id, 'release')).toMatchObject({
      status: 'Released',
      standardUnitCost: 70,
      standardTotalCost: 140,
    })
    // Legs now cost more: 10 @ 11 -> average (50 + 110) / 20 = 8.
    await receive(core, leg.id, 10, 11)
    expect(await step(core, order.id, 'start')).toMatchObject({ status: 'InProgress' })
    // Actual: 8 legs × 8 + 2 tops × 50 = 164, 82 a table; variance 164 - 140 = 24.
    const done = await step(core, order.id, 'complete', {})
    expect(done).toMatchObject({
      status: 'Completed',
      quantityProduced: 2,
      actualTotalCost: 164,
      actualUnitCost: 82,
      standardTotalCost: 140,
      costVariance: 24,
      completedAt: expect.any(String),
    })
    expect(await stockOf(core, table.id)).toMatchObject({ onHand: 2, unitCost: 82, value: 164 })
    expect(await stockOf(core, leg.id)).toMatchObject({ onHand: 12, unitCost: 8 })
    expect(await stockOf(core, top.id)).toMatchObject({ onHand: 3, unitCost: 50 })
    expect((await ledgerOf(core, leg.id)).at(-1)).toMatchObject({
      type: 'WorkOrderIssue',
      quantity: -8,
      unitCost: 8,
    })
    expect(events.filter((e) => e.businessId === owner.org.businessId)).toEqual([
      {
        type: 'WorkOrderCompleted',
        businessId: owner.org.businessId,
        userId: owner.org.userId,
        payload: { workOrderId: order.id, code: 'WO-000001', productId: table.id, quantityProduced: 2 },
      },
    ])
    const forBom = await core({ method: 'GET', url: `/api/v1/bom/${bom.id}/work-orders` })
    expect(forBom.json()).toMatchObject({ totalCount: 1, data: [{ id: order.id, status: 'Completed' }] })
    const inUse = await core({ method: 'DELETE', url: `/api/v1/bom/${bom.id}` })
    expect(inUse.statusCode).toBe(409)
  })

  it('completes back-dated at the costs of that date', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { table, leg, bom } = await tableShop(core)
    await receive(core, leg.id, 10, 11, '2026-02-01T00:00:00Z')
    const order = await createOrder(core, bom.id, 1)
    await step(core, order.id, 'release')
    // On Jan 15 legs still cost 5: 4 × 5 + 50 = 70.
    expect(
      await step(core, order.id, 'complete', { effectiveDate: '2026-01-15T00:00:00Z', quantityProduced: 1 }),
    ).toMatchObject({ actualTotalCost: 70, effectiveDate: '2026-01-15T00:00:00.000Z' })
    expect(await stockOf(core, table.id, '2026-01-20T00:00:00Z')).toMatchObject({ onHand: 1, unitCost: 70 })
    // The Feb 1 receipt re-averages the 6 legs left: (6 × 5 + 10 × 11) / 16 = 8.75.
    expect(await stockOf(core, leg.id)).toMatchObject({ onHand: 16, unitCost: 8.75 })
  })

  it('refuses a completion with short components (409 listing each), posting nothing', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { leg, top, bom, table } = await tableShop(core)
    const order = await createOrder(core, bom.id, 10)
    await step(core, order.id, 'release')
    const response = await core({
      method: 'POST',
      url: `/api/v1/work-orders/${order.id}/complete`,
      payload: {},
    })
    expect(response.statusCode).toBe(409)
    expect(response.json().code).toBe('component_shortfall')
    expect(response.json().reasons).toEqual(
      expect.arrayContaining([
        { field: leg.sku, message: 'short by 30 (needs 40, has 10)' },
        { field: top.sku, message: 'short by 5 (needs 10, has 5)' },
      ]),
    )
    expect(await ledgerOf(core, leg.id)).toHaveLength(1)
    expect(await ledgerOf(core, table.id)).toHaveLength(0)
    expect(await ok(core, 'GET', `/api/v1/work-orders/${order.id}`)).toMatchObject({ status: 'Released' })
  })

  it('checks a back-dated completion against every later point of a long component ledger', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { leg, bom } = await tableShop(core)
    // 10 legs on Jan 1; from Feb 1, 300 entries (+2 at 6, -1 in turn) with one issue of 59 that
    // leaves 3, and 2 after the next entry: the lowest point, in the second checkpoint's stretch.
    const rows: BulkRow[] = []
    for (let i = 0; i < 300; i++) {
      const effectiveDate = new Date(Date.UTC(2026, 1, 1) + i * 60_000).toISOString()
      rows.push(
        i % 2 === 0
          ? { productId: leg.id, type: 'Receipt', quantity: 2, unitCost: 6, effectiveDate }
          : { productId: leg.id, type: 'Issue', quantity: 1, effectiveDate },
      )
      if (i === 100)
        rows.push({
          productId: leg.id,
          type: 'Issue',
          quantity: 59,
          effectiveDate: new Date(Date.UTC(2026, 1, 1) + 100.5 * 60_000).toISOString(),
        })
    }
    await postBulk(core, rows)
    const order = await createOrder(core, bom.id, 1)
    await step(core, order.id, 'release')
    const complete = () =>
      core({
        method: 'POST',
        url: `/api/v1/work-orders/${order.id}/complete`,
        payload: { effectiveDate: '2026-01-15T00:00:00Z' },
      })
    const short = await complete()
    expect(short.statusCode).toBe(409)
    expect(short.json().reasons).toEqual([{ field: leg.sku, message: 'short by 2 (needs 4, has 2)' }])
    const late = { quantity: 2, unitCost: 9, effectiveDate: '2026-01-31T00:00:00Z' }
    await receive(core, leg.id, late.quantity, late.unitCost, late.effectiveDate)
    const done = await complete()
    expect(done.statusCode).toBe(200)
    // On Jan 15 legs still cost 5: 4 × 5 + 50.
    expect(done.json().data).toMatchObject({ actualTotalCost: 70 })
    const movements = [
      { quantity: 10, unitCost: 5, effectiveDate: '2026-01-01T00:00:00Z' },
      { quantity: -4, unitCost: null, effectiveDate: '2026-01-15T00:00:00Z' },
      late,
      ...rows.map(exactOf),
    ]
    const exact = exactLedger(movements).at(-1)!
    const stock = await stockOf(core, leg.id)
    expect(stock.onHand).toBe(exactBalance(exact))
    expect(Math.abs(stock.unitCost - exactAverage(exact))).toBeLessThan(1e-9)
    expect(Math.abs(stock.value - exactValue(exact))).toBeLessThan(0.005)
    expect(Math.min(...(await wholeLedger(core, leg.id)).map((e) => e.balance))).toBe(0)
  })

  it('answers 409 for moves its status does not allow and for edits after Draft', async () => {
    const { core } = await businessSession(ctx, await sharedOrganisation(ctx))
    const { bom } = await tableShop(core)
    const order = await createOrder(core, bom.id, 1)
    for (const path of ['start', 'complete']) {
      const response = await core({
        method: 'POST',
        url: `/api/v1/work-orders/${order.id}/${path}`,
        payload: {},
      })
      expect([response.statusCode, response.json().code], path).toEqual([409, 'invalid_status_transition'])
    }
    const edited = await ok(core, 'PUT', `/api/v1/work-orders/${order.id}`, {
      bomId: bom.id,
      quantity: 3,
      notes: 'rush',
    })
    expect(edited).toMatchObject({ quantity: 3, notes: 'rush', plannedStart: null })
    await step(core, order.id, 'release')
    const late = await core({
      method: 'PUT',
      url: `/api/v1/work-orders/${order.id}`,
      payload: { bomId: bom.id, quantity: 1 },
    })
    expect([late.statusCode, late.json().code]).toEqual([409, 'work_order_not_editable'])
    await step(core, order.id, 'cancel')
    const again = await core({ method: 'POST', url: `/api/v1/work-orders/${order.id}/cancel` })
    expect([again.statusCode, again.json().code]).toEqual([409, 'invalid_status_transition'])
  })

  it('answers 400 naming each invalid field and 404 for foreign ids, for both credential kinds', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const apiCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId),
    })
    const { bom, table } = await tableShop(owner.core)
    const draft = await ok<{ id: string }>(owner.core, 'POST', '/api/v1/bom', {
      productId: table.id,
      name: 'draft',
    })
    const cases: [Record<string, unknown>, string[]][] = [
      [{ quantity: 1 }, ['bomId']],
      [{ bomId: draft.id, quantity: 1 }, ['bomId']],
      [{ bomId: randomUUID(), quantity: 1 }, ['bomId']],
      [{ bomId: bom.id, quantity: 0 }, ['quantity']],
      [{ bomId: bom.id, quantity: 1.00001 }, ['quantity']],
      [
        {
          bomId: bom.id,
          quantity: 1,
          plannedStart: '2026-03-02T00:00:00Z',
          plannedEnd: '2026-03-01T00:00:00Z',
        },
        ['plannedEnd'],
      ],
    ]
    for (const [payload, fields] of cases) {
      const response = await apiCore({ method: 'POST', url: '/api/v1/work-orders', payload })
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(fieldsOf(response), JSON.stringify(payload)).toEqual(fields)
    }
    const order = await createOrder(apiCore, bom.id, 1)
    const future = await apiCore({
      method: 'POST',
      url: `/api/v1/work-orders/${order.id}/complete`,
      payload: { effectiveDate: '2999-01-01T00:00:00Z' },
    })
    expect(fieldsOf(future)).toEqual(['effectiveDate'])
    const listed = await apiCore({ method: 'GET', url: "/api/v1/work-orders?$filter=status eq 'Draft'" })
    expect(listed.json()).toMatchObject({ totalCount: 1, data: [{ id: order.id }] })
    const stranger = await sharedOrganisation(ctx, 'another')
    for (const id of [order.id, randomUUID()]) {
      for (const call of [
        { method: 'GET' as const, url: `/api/v1/work-orders/${id}` },
        { method: 'PUT' as const, url: `/api/v1/work-orders/${id}`, payload: { bomId: bom.id, quantity: 1 } },
        { method: 'POST' as const, url: `/api/v1/work-orders/${id}/release` },
        { method: 'POST' as const, url: `/api/v1/work-orders/${id}/complete`, payload: {} },
      ]) {
        const response = await stranger.core(call)
        expect([response.statusCode, response.json().code], call.url).toEqual([404, 'work_order_not_found'])
      }
    }
    const foreignBom = await stranger.core({ method: 'GET', url: `/api/v1/bom/${bom.id}/work-orders` })
    expect([foreignBom.statusCode, foreignBom.json().code]).toEqual([404, 'bom_not_found'])
  })

  it('needs WorkOrders View to read and Modify to change; the BOM list needs Products View', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { bom } = await tableShop(owner.core)
    const order = await createOrder(owner.core, bom.id, 1)
    await expectAccess(ctx, owner, 'WorkOrders', 1, [
      { method: 'GET', url: '/api/v1/work-orders' },
      { method: 'GET', url: `/api/v1/work-orders/${order.id}` },
    ])
    await expectAccess(ctx, owner, 'WorkOrders', 2, [
      { method: 'POST', url: '/api/v1/work-orders', payload: { bomId: bom.id, quantity: 1 } },
      { method: 'PUT', url: `/api/v1/work-orders/${order.id}`, payload: { bomId: bom.id, quantity: 2 } },
      { method: 'POST', url: `/api/v1/work-orders/${order.id}/release` },
      { method: 'POST', url: `/api/v1/work-orders/${order.id}/start` },
      { method: 'POST', url: `/api/v1/work-orders/${order.id}/complete`, payload: {} },
      { method: 'POST', url: `/api/v1/work-orders/${order.id}/cancel` },
    ])
    await expectAccess(ctx, owner, 'Products', 1, [
      { method: 'GET', url: `/api/v1/bom/${bom.id}/work-orders` },
    ])
  })
})
