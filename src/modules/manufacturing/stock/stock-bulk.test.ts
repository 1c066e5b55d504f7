import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  businessSession,
  fieldsOf,
  sharedOrganisation,
  useSharedOrganisation,
} from '../../../../test/fixtures.js'
import { useTestContext } from '../../../../test/harness.js'
import { expectAccess } from '../access.fixtures.js'
import { createProduct, issue, ledgerOf, ok, receive, stockOf } from '../manufacturing.fixtures.js'
import { MAX_BULK_MOVEMENTS } from './stock.schemas.js'
import { type BulkRow, postBulk } from './stock-exact.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const URL = '/api/v1/products/stock-movements/bulk'
const day = (d: number) => `2026-01-${String(d).padStart(2, '0')}T12:00:00Z`

describe('bulk stock movements', () => {
  it('posts opening balances and history of several products in one request, re-valuing each once', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const rod = await createProduct(owner.core)
    const bolt = await createProduct(owner.core, { reorderLevel: 5 })
    await receive(owner.core, rod.id, 10, 5, day(20))
    const answer = await postBulk(owner.core, [
      {
        productId: rod.id,
        type: 'Receipt',
        quantity: 10,
        unitCost: 11,
        effectiveDate: day(5),
        reference: 'OB',
      },
      { productId: bolt.id, type: 'Receipt', quantity: 8, unitCost: 2, effectiveDate: day(1) },
      { productId: rod.id, type: 'Issue', quantity: 4, effectiveDate: day(10) },
      // Same instant as the receipt above: after it, in the order sent.
      { productId: bolt.id, type: 'Adjustment', quantity: -1, effectiveDate: day(1), reason: 'count' },
      { productId: rod.id, type: 'receipt', quantity: 2, unitCost: 14, effectiveDate: day(10) },
    ])
    // rod: Jan 5 10 @ 11; Jan 10 6 @ 11, then 8 @ (66 + 28) / 8 = 11.75; Jan 20 18 @ (94 + 50) / 18 = 8.
    const [first, second] = [rod.id, bolt.id].sort()
    expect(answer).toEqual({
      posted: 5,
      products: [
        expect.objectContaining({ productId: first }),
        expect.objectContaining({ productId: second }),
      ],
    })
    expect(answer.products.find((p) => p.productId === rod.id)).toEqual({
      productId: rod.id,
      posted: 3,
      revalued: 4,
      onHand: 18,
      averageCost: 8,
      value: 144,
    })
    expect(answer.products.find((p) => p.productId === bolt.id)).toMatchObject({
      posted: 2,
      revalued: 2,
      onHand: 7,
      averageCost: 2,
      value: 14,
    })
    const ledger = await ledgerOf(owner.core, rod.id)
    expect(
      ledger.map((e) => [
        e.effectiveDate.slice(0, 10),
        e.type,
        e.quantity,
        e.unitCost,
        e.balance,
        e.averageCost,
      ]),
    ).toEqual([
      ['2026-01-05', 'Receipt', 10, 11, 10, 11],
      ['2026-01-10', 'Issue', -4, 11, 6, 11],
      ['2026-01-10', 'Receipt', 2, 14, 8, 11.75],
      ['2026-01-20', 'Receipt', 10, 5, 18, 8],
    ])
    expect((await ledgerOf(owner.core, bolt.id)).map((e) => [e.type, e.balance])).toEqual([
      ['Receipt', 8],
      ['Adjustment', 7],
    ])
    expect(await stockOf(owner.core, rod.id, day(12))).toMatchObject({
      onHand: 8,
      unitCost: 11.75,
      value: 94,
    })
    expect(await ok(owner.core, 'GET', `/api/v1/products/${rod.id}`)).toMatchObject({
      onHand: 18,
      averageCost: 8,
    })
  })

  it('refuses the whole request when one row is bad (400 naming each row and field); nothing is posted', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    const good: BulkRow = { productId: id, type: 'Receipt', quantity: 1, unitCost: 1, effectiveDate: day(1) }
    const cases: [unknown, string[]][] = [
      [{}, ['movements']],
      [{ movements: [] }, ['movements']],
      [{ movements: [good, { ...good, unitCost: undefined }] }, ['movements.1.unitCost']],
      [
        { movements: [good, { ...good, productId: 'nope' }, { ...good, type: 'Transfer' }] },
        ['movements.1.productId', 'movements.2.type'],
      ],
      [{ movements: [{ ...good, productId: undefined }] }, ['movements.0.productId']],
      [
        {
          movements: [
            good,
            good,
            { ...good, quantity: 1.00001, unitCost: 1.0000001 },
            { ...good, type: 'Issue', quantity: 1 },
          ],
        },
        ['movements.2.quantity', 'movements.2.unitCost', 'movements.3.unitCost'],
      ],
      [
        {
          movements: [
            { ...good, type: 'Adjustment', quantity: 0 },
            { ...good, effectiveDate: '2999-01-01T00:00:00Z' },
          ],
        },
        ['movements.0.quantity', 'movements.1.effectiveDate'],
      ],
      [{ movements: Array.from({ length: MAX_BULK_MOVEMENTS + 1 }, () => good) }, ['movements']],
    ]
    for (const [payload, fields] of cases) {
      const response = await owner.core({ method: 'POST', url: URL, payload: payload as object })
      expect(response.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400)
      expect(fieldsOf(response), JSON.stringify(payload).slice(0, 200)).toEqual(fields)
    }
    const many = await owner.core({
      method: 'POST',
      url: URL,
      payload: { movements: Array.from({ length: 300 }, (_, i) => ({ ...good, quantity: i % 2 ? 1 : 0 })) },
    })
    expect(many.json()).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^150 row\(s\) are not valid; nothing was posted \(the first 100/),
    })
    expect(fieldsOf(many)).toHaveLength(100)
    expect(await ledgerOf(owner.core, id)).toEqual([])
  })

  it("answers 404 naming the rows of another organisation's product, 409 for Services and archived products", async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const stranger = await sharedOrganisation(ctx, 'another')
    const mine = await createProduct(owner.core)
    const theirs = await createProduct(stranger.core)
    const row = (productId: string): BulkRow => ({
      productId,
      type: 'Receipt',
      quantity: 1,
      unitCost: 1,
      effectiveDate: day(1),
    })
    const foreign = await owner.core({
      method: 'POST',
      url: URL,
      payload: { movements: [row(mine.id), row(theirs.id), row(randomUUID()), row(theirs.id)] },
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toMatchObject({ code: 'product_not_found' })
    expect(fieldsOf(foreign).sort()).toEqual([
      'movements.1.productId',
      'movements.2.productId',
      'movements.3.productId',
    ])
    const service = await createProduct(owner.core, { type: 'Service' })
    const refused = await owner.core({
      method: 'POST',
      url: URL,
      payload: { movements: [row(mine.id), row(service.id)] },
    })
    expect([refused.statusCode, refused.json().code, fieldsOf(refused)]).toEqual([
      409,
      'service_holds_no_stock',
      ['movements.1.productId'],
    ])
    const archived = await createProduct(owner.core)
    await ok(owner.core, 'DELETE', `/api/v1/products/${archived.id}`)
    const gone = await owner.core({
      method: 'POST',
      url: URL,
      payload: { movements: [row(archived.id), row(mine.id)] },
    })
    expect([gone.statusCode, gone.json().code, fieldsOf(gone)]).toEqual([
      409,
      'product_archived',
      ['movements.0.productId'],
    ])
    expect(await ledgerOf(owner.core, mine.id)).toEqual([])
    expect(await ledgerOf(stranger.core, theirs.id)).toEqual([])
  })

  it('refuses (409) a batch that takes any point in time below zero, naming the row; nothing is posted', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const a = await createProduct(owner.core)
    const b = await createProduct(owner.core)
    await receive(owner.core, a.id, 10, 5, day(1))
    await issue(owner.core, a.id, 8, day(20))
    const post = (movements: BulkRow[]) => owner.core({ method: 'POST', url: URL, payload: { movements } })
    // Row 2 itself would go below zero on Jan 6 (10 - 7 - 4).
    const own = await post([
      { productId: b.id, type: 'Receipt', quantity: 5, unitCost: 1, effectiveDate: day(1) },
      { productId: a.id, type: 'Issue', quantity: 7, effectiveDate: day(5) },
      { productId: a.id, type: 'Issue', quantity: 4, effectiveDate: day(6) },
    ])
    expect(own.statusCode).toBe(409)
    expect(own.json()).toMatchObject({
      code: 'stock_shortfall',
      message: expect.stringContaining('2026-01-06T12:00:00.000Z, short by 1'),
      reasons: [{ field: 'movements.2.quantity' }],
    })
    // Enough on Jan 5 (11 - 4), but the existing Jan 20 issue of 8 would then find 7: blamed on row 1.
    const older = await post([
      { productId: a.id, type: 'Receipt', quantity: 1, unitCost: 5, effectiveDate: day(2) },
      { productId: a.id, type: 'Issue', quantity: 4, effectiveDate: day(5) },
      { productId: a.id, type: 'Receipt', quantity: 1, unitCost: 5, effectiveDate: day(25) },
    ])
    expect(older.json()).toMatchObject({
      code: 'stock_shortfall',
      message: expect.stringContaining('2026-01-20T12:00:00.000Z, short by 1'),
      reasons: [{ field: 'movements.1.quantity' }],
    })
    expect((await ledgerOf(owner.core, a.id)).length).toBe(2)
    expect(await ledgerOf(owner.core, b.id)).toEqual([])
    expect(await stockOf(owner.core, a.id)).toMatchObject({ onHand: 2 })
  })

  it(`takes ${MAX_BULK_MOVEMENTS} rows with every reason and reference at full length within the body limit`, async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    const movements = Array.from({ length: MAX_BULK_MOVEMENTS }, (_, i) => ({
      productId: id,
      type: 'Adjustment',
      quantity: 999_999_999.9999,
      unitCost: 999_999_999.999999,
      effectiveDate: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
      reason: 'r'.repeat(500),
      reference: 'f'.repeat(200),
    }))
    const body = JSON.stringify({ movements })
    expect(Buffer.byteLength(body)).toBeLessThan(1_048_576)
    const answer = await postBulk(owner.core, movements)
    expect(answer.products[0]).toMatchObject({ posted: MAX_BULK_MOVEMENTS, revalued: MAX_BULK_MOVEMENTS })
  })

  it('serves both credential kinds and needs Products Modify', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    await expectAccess(ctx, owner, 'Products', 2, [
      {
        method: 'POST',
        url: URL,
        payload: { movements: [{ productId: id, type: 'Receipt', quantity: 1, unitCost: 1 }] },
      },
    ])
    expect(await stockOf(owner.core, id)).toMatchObject({ onHand: 1, unitCost: 1, value: 1 })
  })
})
