import { describe, expect, it } from 'vitest'
import { businessSession, sharedOrganisation, useSharedOrganisation } from '../../../../test/fixtures.js'
import { type Core, useTestContext } from '../../../../test/harness.js'
import { testDatabaseUrl } from '../../../../test/test-database.js'
import { createProduct, move, ok, stockOf } from '../manufacturing.fixtures.js'
import {
  type BulkRow,
  type ExactMovement,
  type ExactPoint,
  exactAsOf,
  exactAverage,
  exactBalance,
  exactLedger,
  exactOf,
  exactValue,
  postBulk,
  wholeLedger,
} from './stock-exact.fixtures.js'

const ctx = useTestContext()
useSharedOrganisation(ctx)
const minute = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString()

/** The stock read at `instant` agrees with the exact recomputation: value to the cent, average to 1e-9. */
async function expectStockAt(core: Core, productId: string, points: readonly ExactPoint[], instant: string) {
  const exact = exactAsOf(points, instant)
  const stock = await stockOf(core, productId, instant)
  expect(stock.onHand, instant).toBe(exact ? exactBalance(exact) : 0)
  expect(Math.abs(stock.unitCost - (exact ? exactAverage(exact) : 0)), `average at ${instant}`).toBeLessThan(
    1e-9,
  )
  expect(Math.abs(stock.value - (exact ? exactValue(exact) : 0)), `value at ${instant}`).toBeLessThan(0.005)
}

/** Every entry of the ledger agrees with the exact recomputation, in order. */
async function expectLedger(core: Core, productId: string, points: readonly ExactPoint[]) {
  const ledger = await wholeLedger(core, productId)
  expect(ledger.length).toBe(points.length)
  let before: ExactPoint | undefined
  ledger.forEach((entry, i) => {
    const exact = points[i]!
    const at = `entry ${i} (${entry.effectiveDate})`
    expect(entry.effectiveDate, at).toBe(new Date(exact.effectiveDate).toISOString())
    expect(entry.balance, at).toBe(exactBalance(exact))
    expect(Math.abs(entry.averageCost - exactAverage(exact)), `${at} average`).toBeLessThan(1e-9)
    // What moves at the average moves at the one before it (which it leaves unchanged).
    if (entry.quantity < 0 && before)
      expect(Math.abs(entry.unitCost - exactAverage(before)), `${at} unit cost`).toBeLessThan(1e-9)
    before = exact
  })
}

describe('exact moving-average valuation', () => {
  it('keeps every small receipt after a large stock in the average and the value', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    const rows: BulkRow[] = [
      { productId: id, type: 'Receipt', quantity: 1_000_000, unitCost: 10, effectiveDate: minute(0) },
    ]
    // Each receipt moves the average by about 4e-7: below what a 6-place average keeps.
    for (let i = 1; i <= 900; i++) {
      rows.push({ productId: id, type: 'Receipt', quantity: 1, unitCost: 10.4, effectiveDate: minute(i) })
      if (i % 100 === 0)
        rows.push({ productId: id, type: 'Issue', quantity: 3.5, effectiveDate: minute(i + 0.5) })
    }
    await postBulk(owner.core, rows)
    const movements: ExactMovement[] = rows.map(exactOf)
    for (let i = 1; i <= 10; i++) {
      const single = { quantity: 0.5, unitCost: 10.45, effectiveDate: minute(1_000 + i) }
      await move(owner.core, id, { type: 'Receipt', ...single })
      movements.push(single)
    }
    const points = exactLedger(movements)
    const last = points.at(-1)!
    // 1,000,000 @ 10 plus 905 @ 10.4-10.45, less 31.5 at the average: the average is well above 10.
    expect(exactAverage(last)).toBeGreaterThan(10.0003)
    const now = await stockOf(owner.core, id)
    expect(now.onHand).toBe(1_000_873.5)
    expect(Math.abs(now.unitCost - exactAverage(last))).toBeLessThan(1e-9)
    expect(Math.abs(now.value - exactValue(last))).toBeLessThan(0.005)
    for (const instant of [minute(0), minute(1), minute(450), minute(900.5), minute(1_005)])
      await expectStockAt(owner.core, id, points, instant)
    const product = await owner.core({ method: 'GET', url: `/api/v1/products/${id}` })
    expect(Math.abs(product.json().data.averageCost - exactAverage(last))).toBeLessThan(1e-9)
  }, 90_000)

  it('re-values thousands of later entries exactly when receipts are back-dated before them', async () => {
    const owner = await businessSession(ctx, await sharedOrganisation(ctx))
    const { id } = await createProduct(owner.core)
    const rows: BulkRow[] = []
    // 3,000 entries: receipts of odd quantities at 6-place costs, issues that never empty the stock.
    for (let i = 0; i < 3_000; i++) {
      const effectiveDate = minute(100 + i)
      if (i % 3 === 2) rows.push({ productId: id, type: 'Issue', quantity: 1.2345, effectiveDate })
      else
        rows.push({
          productId: id,
          type: 'Receipt',
          quantity: Number((0.75 + (i % 7) * 0.3333).toFixed(4)),
          unitCost: Number((9 + ((i * 7919) % 1000) / 999.999).toFixed(6)),
          effectiveDate,
        })
    }
    for (let start = 0; start < rows.length; start += 1_000)
      await postBulk(owner.core, rows.slice(start, start + 1_000))
    const movements: ExactMovement[] = rows.map(exactOf)
    const later: { body: Record<string, unknown>; exact: ExactMovement }[] = [
      {
        body: { type: 'Receipt', quantity: 250, unitCost: 17.123457 },
        exact: { quantity: 250, unitCost: 17.123457, effectiveDate: minute(1) },
      },
      {
        body: { type: 'Receipt', quantity: 0.0001, unitCost: 3.000001 },
        exact: { quantity: 0.0001, unitCost: 3.000001, effectiveDate: minute(150.5) },
      },
      {
        body: { type: 'Issue', quantity: 100 },
        exact: { quantity: -100, unitCost: null, effectiveDate: minute(160.5) },
      },
      {
        body: { type: 'Adjustment', quantity: 12.5 },
        exact: { quantity: 12.5, unitCost: null, effectiveDate: minute(1_000.5) },
      },
      {
        body: { type: 'Adjustment', quantity: 40, unitCost: 11.5 },
        exact: { quantity: 40, unitCost: 11.5, effectiveDate: minute(2_000.5) },
      },
      {
        body: { type: 'Receipt', quantity: 1_000, unitCost: 8.25 },
        exact: { quantity: 1_000, unitCost: 8.25, effectiveDate: minute(50) },
      },
    ]
    for (const { body, exact } of later) {
      const entry = await move(owner.core, id, { ...body, effectiveDate: exact.effectiveDate })
      movements.push(exact)
      const points = exactLedger(movements)
      const mine = points.find((p) => p.effectiveDate === exact.effectiveDate)!
      expect(entry.balance).toBe(exactBalance(mine))
      expect(Math.abs(entry.averageCost - exactAverage(mine))).toBeLessThan(1e-9)
    }
    const points = exactLedger(movements)
    await expectLedger(owner.core, id, points)
    for (const instant of [minute(1), minute(99), minute(150.5), minute(161), minute(1_700), minute(3_200)])
      await expectStockAt(owner.core, id, points, instant)
    await expectStockAt(owner.core, id, points, new Date().toISOString())
    // The BOM cost reads the same averages at its date: from a checkpoint, or folded past one.
    const finished = await createProduct(owner.core, { type: 'FinishedGood', name: 'Assembly' })
    const bom = await ok<{ id: string }>(owner.core, 'POST', '/api/v1/bom', {
      productId: finished.id,
      name: 'Assembly',
      lineItems: [{ productId: id, quantity: 1 }],
    })
    for (const instant of [minute(99), minute(1_700), new Date().toISOString()]) {
      const cost = await ok<{ lineItems: { unitCost: number; costSource: string }[] }>(
        owner.core,
        'GET',
        `/api/v1/bom/${bom.id}/cost?asOfDate=${encodeURIComponent(instant)}`,
      )
      expect(cost.lineItems[0]?.costSource).toBe('Ledger')
      expect(cost.lineItems[0]?.unitCost, instant).toBeCloseTo(exactAverage(exactAsOf(points, instant)!), 4)
    }
  }, 90_000)

  it.skipIf(!testDatabaseUrl())(
    'serialises a back-dated receipt and a concurrent issue of the same product; reads see one or the other (PostgreSQL)',
    async () => {
      const owner = await businessSession(ctx, await sharedOrganisation(ctx))
      const races = await Promise.all(
        Array.from({ length: 4 }, async (_, n) => {
          const { id } = await createProduct(owner.core)
          const rows: BulkRow[] = []
          for (let i = 0; i < 2_000; i++)
            rows.push(
              i % 2 === 0
                ? {
                    productId: id,
                    type: 'Receipt',
                    quantity: 3,
                    unitCost: 10 + (i % 5),
                    effectiveDate: minute(10 + i),
                  }
                : { productId: id, type: 'Issue', quantity: 2.5, effectiveDate: minute(10 + i) },
            )
          for (let start = 0; start < rows.length; start += 1_000)
            await postBulk(owner.core, rows.slice(start, start + 1_000))
          const movements = rows.map(exactOf)
          // 500 on hand; the issue needs the back-dated receipt's 300 as well.
          const receipt = { quantity: 300, unitCost: 20 + n, effectiveDate: minute(5) }
          const issue = { quantity: -650, unitCost: null, effectiveDate: new Date().toISOString() }
          const states = [exactLedger(movements), exactLedger([...movements, receipt])]
          const post = (body: Record<string, unknown>) =>
            owner.core({ method: 'POST', url: `/api/v1/products/${id}/stock-movements`, payload: body })
          const read = () => owner.core({ method: 'GET', url: `/api/v1/products/${id}/stock` })
          const [receipted, issued, ...reads] = await Promise.all([
            post({
              type: 'Receipt',
              quantity: 300,
              unitCost: receipt.unitCost,
              effectiveDate: receipt.effectiveDate,
            }),
            post({ type: 'Issue', quantity: 650, effectiveDate: issue.effectiveDate }),
            ...Array.from({ length: 10 }, read),
          ])
          expect(receipted!.statusCode).toBe(200)
          expect([200, 409]).toContain(issued!.statusCode)
          const accepted =
            issued!.statusCode === 200 ? [...movements, receipt, issue] : [...movements, receipt]
          if (issued!.statusCode === 200) states.push(exactLedger(accepted))
          const finalPoints = exactLedger(accepted)
          await expectLedger(owner.core, id, finalPoints)
          await expectStockAt(owner.core, id, finalPoints, new Date().toISOString())
          expect((await wholeLedger(owner.core, id)).every((e) => e.balance >= 0)).toBe(true)
          // Each read saw a committed state: before the receipt, after it, or after both.
          for (const response of reads) {
            const stock = response.json().data as { onHand: number; unitCost: number; value: number }
            const seen = states.some((points) => {
              const last = points.at(-1)!
              return (
                stock.onHand === exactBalance(last) &&
                Math.abs(stock.unitCost - exactAverage(last)) < 1e-9 &&
                Math.abs(stock.value - exactValue(last)) < 0.005
              )
            })
            expect(seen, JSON.stringify(stock)).toBe(true)
          }
          return issued!.statusCode
        }),
      )
      expect(races).toHaveLength(4)
    },
  )
})
