import type { Core } from '../../../../test/harness.js'
import { type Entry, ok } from '../manufacturing.fixtures.js'

/**
 * The reference the ledger is compared with: the moving average recomputed from the movements in
 * exact rational arithmetic (BigInt numerator and denominator, nothing rounded anywhere).
 * Quantities are counted in units of 0.0001, costs in units of 0.000001.
 */
export interface ExactMovement {
  /** signed */
  quantity: number
  /** a receipt's (or positive adjustment's) cost; null moves at the average */
  unitCost: number | null
  effectiveDate: string
}

export interface ExactPoint {
  effectiveDate: string
  /** running quantity in units of 0.0001 */
  balance: bigint
  /** the average cost as avgN / avgD */
  avgN: bigint
  avgD: bigint
}

const Q = 10_000n
const C = 1_000_000n
const units = (value: number, scale: number) => BigInt(Math.round(value * scale))

/**
 * The points after each movement, in ledger order: effective date, then the order posted (the
 * index in `movements`). A receipt with a cost into a positive stock: average = (Q × A + q × c) / (Q + q);
 * into an empty or negative one: its cost; anything else leaves the average as it is. The value
 * is always Q × A.
 */
export function exactLedger(movements: readonly ExactMovement[]): ExactPoint[] {
  const ordered = movements
    .map((m, i) => ({ m, i, t: Date.parse(m.effectiveDate) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
  let balance = 0n
  let avgN = 0n
  let avgD = 1n
  return ordered.map(({ m }) => {
    const q = units(m.quantity, 10_000)
    const after = balance + q
    if (m.unitCost !== null && q > 0n) {
      const c = units(m.unitCost, 1_000_000)
      if (balance <= 0n) {
        avgN = c
        avgD = C
      } else {
        avgN = balance * avgN * C + q * c * avgD
        avgD = C * avgD * after
      }
    }
    balance = after
    return { effectiveDate: m.effectiveDate, balance, avgN, avgD }
  })
}

/** The last point at or before `instant` (the stock as of then), or null before the first. */
export function exactAsOf(points: readonly ExactPoint[], instant: string): ExactPoint | null {
  const t = Date.parse(instant)
  let found: ExactPoint | null = null
  for (const point of points) {
    if (Date.parse(point.effectiveDate) > t) break
    found = point
  }
  return found
}

/** The average to 12 places, as a number (only for comparing within 1e-9). */
export const exactAverage = (p: ExactPoint) => Number((p.avgN * 10n ** 12n) / p.avgD) / 1e12

/** The value Q × A to 6 places, as a number (only for comparing within a cent). */
export const exactValue = (p: ExactPoint) => Number((p.balance * p.avgN * 100n) / p.avgD) / 1e6

export const exactBalance = (p: ExactPoint) => Number(p.balance) / Number(Q)

/** Every ledger entry of the product, page by page, in ledger order. */
export async function wholeLedger(core: Core, productId: string): Promise<Entry[]> {
  const entries: Entry[] = []
  for (let page = 1; ; page++) {
    const response = await core({
      method: 'GET',
      url: `/api/v1/products/${productId}/ledger?PageSize=100&Page=${page}`,
    })
    if (response.statusCode !== 200) throw new Error(`ledger: ${response.statusCode} ${response.body}`)
    const body = response.json() as { data: Entry[]; hasMore: boolean }
    entries.push(...body.data)
    if (!body.hasMore) return entries
  }
}

export interface BulkRow {
  productId: string
  type: string
  quantity: number
  unitCost?: number | null
  effectiveDate?: string
  reason?: string | null
  reference?: string | null
}

export interface BulkAnswer {
  posted: number
  products: {
    productId: string
    posted: number
    revalued: number
    onHand: number
    averageCost: number
    value: number
  }[]
}

export const postBulk = (core: Core, movements: readonly BulkRow[]) =>
  ok<BulkAnswer>(core, 'POST', '/api/v1/products/stock-movements/bulk', { movements })

/** A bulk row as the reference sees it (issues signed). */
export const exactOf = (row: BulkRow): ExactMovement => ({
  quantity: row.type === 'Issue' ? -row.quantity : row.quantity,
  unitCost: row.unitCost ?? null,
  effectiveDate: row.effectiveDate ?? new Date().toISOString(),
})
