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
import { testDatabaseUrl } from '../../../../test/test-database.js'
import type { DomainEvent } from '../../../platform/domain-events.js'
import { expectAccess } from '../access.fixtures.js'
import { createProduct, issue, ledgerOf, move, ok, receive, stockOf } from '../manufacturing.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const day = (d: number) => `2026-01-${String(d).padStart(2, '0')}T12:00:00Z`

describe('stock movements and the ledger', () => {
  it('re-values every later entry when a receipt is back-dated (worked example)', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    await receive(owner.core, id, 10, 5, day(1)) // 10 @ 5
    const jan10 = await issue(owner.core, id, 4, day(10)) // 6 @ 5
    await receive(owner.core, id, 6, 8, day(20)) // 12 @ (30 + 48) / 12 = 6.5
    await issue(owner.core, id, 2, day(25)) // 10 @ 6.5
    expect(jan10).toMatchObject({
      type: 'Issue',
      quantity: -4,
      unitCost: 5,
      value: -20,
      balance: 6,
      averageCost: 5,
    })
    expect(await stockOf(owner.core, id, day(15))).toMatchObject({ onHand: 6, unitCost: 5, value: 30 })
    expect(await stockOf(owner.core, id)).toMatchObject({ onHand: 10, unitCost: 6.5, value: 65 })

    // Back-dated: 10 @ 11 on Jan 5 -> Jan 5 20 @ (50 + 110) / 20 = 8; the Jan 10 issue now costs 8;
    // Jan 20: 22 @ (16*8 + 6*8) / 22 = 8; Jan 25: 20 @ 8.
    const back = await receive(owner.core, id, 10, 11, day(5))
    expect(back).toMatchObject({ balance: 20, averageCost: 8, unitCost: 11 })
    expect(await stockOf(owner.core, id, day(15))).toMatchObject({ onHand: 16, unitCost: 8, value: 128 })
    expect(await stockOf(owner.core, id)).toMatchObject({ onHand: 20, unitCost: 8, value: 160 })
    const ledger = await ledgerOf(owner.core, id)
    expect(
      ledger.map((e) => [e.effectiveDate.slice(0, 10), e.quantity, e.unitCost, e.balance, e.averageCost]),
    ).toEqual([
      ['2026-01-01', 10, 5, 10, 5],
      ['2026-01-05', 10, 11, 20, 8],
      ['2026-01-10', -4, 8, 16, 8],
      ['2026-01-20', 6, 8, 22, 8],
      ['2026-01-25', -2, 8, 20, 8],
    ])
    expect(await stockOf(owner.core, id, '2025-12-31T00:00:00Z')).toMatchObject({
      onHand: 0,
      unitCost: 0,
      value: 0,
    })
    const product = await ok<{ onHand: number; averageCost: number }>(
      owner.core,
      'GET',
      `/api/v1/products/${id}`,
    )
    expect(product).toMatchObject({ onHand: 20, averageCost: 8 })
  })

  it('refuses (409) a movement that takes any point in time below zero, naming the date and the shortfall', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    await receive(owner.core, id, 10, 5, day(1))
    await receive(owner.core, id, 2, 5, day(20))
    await issue(owner.core, id, 12, day(25))
    const early = await owner.core({
      method: 'POST',
      url: `/api/v1/products/${id}/stock-movements`,
      payload: { type: 'Issue', quantity: 11, effectiveDate: day(3) },
    })
    expect(early.statusCode).toBe(409)
    expect(early.json()).toMatchObject({
      code: 'stock_shortfall',
      message: expect.stringContaining('2026-01-03T12:00:00.000Z, short by 1'),
    })
    // Enough on Jan 22 (12), but the Jan 25 issue would then find 11: short by 1 on Jan 25.
    const later = await owner.core({
      method: 'POST',
      url: `/api/v1/products/${id}/stock-movements`,
      payload: { type: 'Adjustment', quantity: -1, effectiveDate: day(22) },
    })
    expect(later.json()).toMatchObject({
      code: 'stock_shortfall',
      message: expect.stringContaining('2026-01-25T12:00:00.000Z, short by 1'),
    })
    expect((await ledgerOf(owner.core, id)).length).toBe(3)
    expect(await stockOf(owner.core, id)).toMatchObject({ onHand: 0 })

    const saved = await owner.core({
      method: 'PATCH',
      url: '/api/settings/business',
      payload: { 'stock.allowNegative': 'true' },
    })
    expect(saved.statusCode).toBe(200)
    expect(await issue(owner.core, id, 3, day(26))).toMatchObject({ balance: -3, unitCost: 5 })
  })

  it('moves adjustments at the average unless a positive one states a cost', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    await receive(owner.core, id, 4, 10, day(1))
    expect(
      await move(owner.core, id, { type: 'Adjustment', quantity: 2, effectiveDate: day(2) }),
    ).toMatchObject({ balance: 6, averageCost: 10, unitCost: 10 })
    expect(
      await move(owner.core, id, {
        type: 'adjustment',
        quantity: 2,
        unitCost: 14,
        effectiveDate: day(3),
        reason: 'count',
        reference: 'CNT-1',
      }),
    ).toMatchObject({ balance: 8, averageCost: 11, unitCost: 14 })
    expect(await move(owner.core, id, { type: 2, quantity: -8, effectiveDate: day(4) })).toMatchObject({
      balance: 0,
      averageCost: 11,
      value: -88,
    })
    const filtered = await owner.core({
      method: 'GET',
      url: `/api/v1/products/${id}/ledger?$search=cnt&$orderby=effectiveDate desc`,
    })
    expect(filtered.json()).toMatchObject({
      totalCount: 1,
      data: [{ reason: 'count', reference: 'CNT-1', createdByUserId: owner.org.userId }],
    })
  })

  it('publishes StockAtReorderLevel in the transaction when an issue takes the stock to or below the level', async () => {
    const events: DomainEvent[] = []
    onTestFinished(
      ctx.services.events.on('stock-test', async (_db, _schema, event) => {
        if (event.type === 'StockAtReorderLevel') events.push(event)
      }),
    )
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const product = await createProduct(owner.core, { reorderLevel: 5, name: 'Glue' })
    await receive(owner.core, product.id, 10, 1)
    await issue(owner.core, product.id, 4)
    expect(events.filter((e) => e.businessId === owner.org.businessId)).toEqual([])
    await issue(owner.core, product.id, 1)
    await issue(owner.core, product.id, 1)
    expect(events.filter((e) => e.businessId === owner.org.businessId)).toEqual([
      {
        type: 'StockAtReorderLevel',
        businessId: owner.org.businessId,
        userId: owner.org.userId,
        payload: { productId: product.id, sku: product.sku, name: 'Glue', onHand: 5, reorderLevel: 5 },
      },
    ])
  })

  it('answers 400 naming each invalid field, 404 for foreign products, 409 for Services and archived products', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    const url = `/api/v1/products/${id}/stock-movements`
    const cases: [Record<string, unknown>, string[]][] = [
      [{ quantity: 1, unitCost: 1 }, ['type']],
      [{ type: 'Transfer', quantity: 1 }, ['type']],
      [{ type: 'Receipt', quantity: 1 }, ['unitCost']],
      [{ type: 'Receipt', quantity: 0, unitCost: 1 }, ['quantity']],
      [{ type: 'Issue', quantity: -1 }, ['quantity']],
      [{ type: 'Issue', quantity: 1, unitCost: 2 }, ['unitCost']],
      [{ type: 'Adjustment', quantity: 0 }, ['quantity']],
      [{ type: 'Adjustment', quantity: -1, unitCost: 2 }, ['unitCost']],
      [{ type: 'Receipt', quantity: 1.00001, unitCost: 1.0000001 }, ['quantity', 'unitCost']],
      [
        { type: 'Receipt', quantity: 1, unitCost: 1, effectiveDate: '2999-01-01T00:00:00Z' },
        ['effectiveDate'],
      ],
      [{ type: 'Receipt', quantity: 1, unitCost: 1, effectiveDate: 'yesterday' }, ['effectiveDate']],
    ]
    for (const [payload, fields] of cases) {
      const response = await owner.core({ method: 'POST', url, payload })
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(fieldsOf(response), JSON.stringify(payload)).toEqual(fields)
    }
    const badDate = await owner.core({ method: 'GET', url: `/api/v1/products/${id}/stock?asOfDate=soon` })
    expect(fieldsOf(badDate)).toEqual(['asOfDate'])

    const stranger = await sharedOrganisation(ctx, 'another')
    for (const other of [id, randomUUID()]) {
      for (const call of [
        {
          method: 'POST' as const,
          url: `/api/v1/products/${other}/stock-movements`,
          payload: { type: 'Receipt', quantity: 1, unitCost: 1 },
        },
        { method: 'GET' as const, url: `/api/v1/products/${other}/stock` },
        { method: 'GET' as const, url: `/api/v1/products/${other}/ledger` },
      ]) {
        const response = await stranger.core(call)
        expect([response.statusCode, response.json().code], call.url).toEqual([404, 'product_not_found'])
      }
    }
    const service = await createProduct(owner.core, { type: 'Service' })
    const refused = await owner.core({
      method: 'POST',
      url: `/api/v1/products/${service.id}/stock-movements`,
      payload: { type: 'Receipt', quantity: 1, unitCost: 1 },
    })
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'service_holds_no_stock'])
    await ok(owner.core, 'DELETE', `/api/v1/products/${id}`)
    const archived = await owner.core({
      method: 'POST',
      url,
      payload: { type: 'Receipt', quantity: 1, unitCost: 1 },
    })
    expect([archived.statusCode, archived.json().code]).toEqual([409, 'product_archived'])
  })

  it('serves both credential kinds and needs Products View to read and Modify to move', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    const apiCore = coreAs(ctx, {
      apiKey: await createApiKey(ctx, owner.signedIn.accessToken, owner.org.businessId),
    })
    await receive(apiCore, id, 3, 2)
    expect(await stockOf(apiCore, id)).toMatchObject({ onHand: 3, unitCost: 2, value: 6 })
    await expectAccess(ctx, owner, 'Products', 1, [
      { method: 'GET', url: `/api/v1/products/${id}/stock` },
      { method: 'GET', url: `/api/v1/products/${id}/ledger` },
    ])
    await expectAccess(ctx, owner, 'Products', 2, [
      {
        method: 'POST',
        url: `/api/v1/products/${id}/stock-movements`,
        payload: { type: 'Receipt', quantity: 1, unitCost: 1 },
      },
    ])
  })

  it.skipIf(!testDatabaseUrl())(
    'accepts exactly 10 of 100 parallel issues of 1 against a stock of 10 (PostgreSQL)',
    async () => {
      const owner = await businessSession(ctx, await sharedOrganisation(ctx))
      const { id } = await createProduct(owner.core)
      await receive(owner.core, id, 10, 3)
      const responses = await Promise.all(
        Array.from({ length: 100 }, () =>
          owner.core({
            method: 'POST',
            url: `/api/v1/products/${id}/stock-movements`,
            payload: { type: 'Issue', quantity: 1 },
          }),
        ),
      )
      const statuses = responses.map((r) => r.statusCode)
      expect(statuses.filter((s) => s === 200)).toHaveLength(10)
      expect(statuses.filter((s) => s === 409)).toHaveLength(90)
      expect(await stockOf(owner.core, id)).toMatchObject({ onHand: 0 })
      const ledger = await ledgerOf(owner.core, id)
      expect(ledger.reduce((sum, e) => sum + e.quantity, 0)).toBe(0)
      expect(ledger.at(-1)?.balance).toBe(0)
    },
  )
})
