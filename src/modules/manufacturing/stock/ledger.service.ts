import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import type { AppError } from '../../../errors.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import { readSetting } from '../../organisation/index.js'
import { round } from '../decimals.js'
import type { ProductRow } from '../products/index.js'
import {
  insertEntries,
  lastOutgoingAtOrBefore,
  type NewEntry,
  type ProductStart,
  type Revaluation,
  revalue,
} from './ledger.repository.js'
import { stockShortfall } from './stock.errors.js'
import { updateStockSummaries } from './stock.repository.js'
import type { ENTRY_TYPES } from './stock.schemas.js'

export type EntryType = (typeof ENTRY_TYPES)[number]

export interface Movement {
  type: EntryType
  /** signed: negative takes stock out */
  quantity: number
  receivedCost: number | null
  effectiveDate: Date
  reason: string | null
  reference: string | null
  workOrderId: string | null
}

export interface PostingScope {
  /** Where a crossing of the reorder level is announced. */
  events: DomainEventPublisher
  schemaName: string
  businessId: string
  userId: string | null
}

/** A posted entry as re-valued: its running balance and the exact unit cost it moved at. */
export interface PostedEntry {
  id: string
  balance: string
  unit_cost: string
}

/** Where a request's postings run: its organisation schema, business and user, with the process's events. */
export const postingScopeOf = (
  events: DomainEventPublisher,
  auth: { schemaName: string; businessId: string; userId: string | null },
): PostingScope => ({ events, schemaName: auth.schemaName, businessId: auth.businessId, userId: auth.userId })

export const allowsNegative = (trx: Transaction<Tables>, scope: PostingScope) =>
  readSetting(trx, scope.schemaName, scope.businessId, 'stock.allowNegative')

const entryOf = (scope: PostingScope, productId: string, movement: Movement): NewEntry => ({
  id: newId(),
  business_id: scope.businessId,
  product_id: productId,
  type: movement.type,
  quantity: String(movement.quantity),
  received_cost: movement.receivedCost === null ? null : String(movement.receivedCost),
  effective_date: movement.effectiveDate,
  reason: movement.reason,
  reference: movement.reference,
  work_order_id: movement.workOrderId,
  created_by_user_id: scope.userId,
})

interface Shortfall {
  productId: string
  /** the first entry below zero */
  id: string
  date: Date
  shortBy: number
}

/** One movement of one product, in a posting of several products at once. */
export interface ProductMovement {
  product: ProductRow
  movement: Movement
}

/**
 * Inserts the entries of the products (locked FOR UPDATE by the caller), then re-values each
 * product once, from the earliest of its new entries: three statements however many products.
 * When any entry of a product takes stock out, a balance of that product below zero at or after
 * the earliest such entry refuses the posting (`refuse` builds the error for the first product, in
 * the order of the entries, that falls short) unless negative stock is allowed. Then keeps the
 * products' current stock and publishes StockAtReorderLevel for each product an outgoing posting
 * takes from above its reorder level to it or below.
 */
async function postEntries(
  trx: Transaction<Tables>,
  scope: PostingScope,
  products: ReadonlyMap<string, ProductRow>,
  entries: readonly NewEntry[],
  refuse: (shortfall: Shortfall) => Promise<AppError>,
  negativeAllowed: boolean | undefined,
): Promise<Map<string, Revaluation>> {
  // Products in the order of their first entry: the first to fall short is the one refused.
  const order = new Map<string, number>()
  entries.forEach((e, i) => {
    if (!order.has(e.product_id)) order.set(e.product_id, i)
  })
  const starts = (await insertEntries(trx, scope.schemaName, entries)).sort(
    (a, b) => order.get(a.product_id)! - order.get(b.product_id)!,
  )
  const unchecked = (list: readonly ProductStart[]) => list.map((s) => ({ ...s, check: null }))
  const results = new Map(
    (
      await revalue(
        trx,
        scope.schemaName,
        negativeAllowed === true ? unchecked(starts) : starts,
        negativeAllowed !== true,
      )
    ).map((r) => [r.product_id, r]),
  )
  const short = [...results.values()].filter((r) => r.short_date !== null)
  if (short.length > 0) {
    if (!(negativeAllowed ?? (await allowsNegative(trx, scope)))) {
      const first = short[0]!
      throw await refuse({
        productId: first.product_id,
        id: first.short_id!,
        date: first.short_date!,
        shortBy: round(-Number(first.short_balance)),
      })
    }
    const again = starts.filter((s) => results.get(s.product_id)?.short_date !== null)
    for (const r of await revalue(trx, scope.schemaName, unchecked(again), false))
      results.set(r.product_id, r)
  }
  await updateStockSummaries(
    trx,
    scope.schemaName,
    starts.map((s) => {
      const r = results.get(s.product_id)!
      return { productId: s.product_id, onHand: r.last_balance!, averageCost: r.last_average! }
    }),
  )
  for (const start of starts) {
    const product = products.get(start.product_id)!
    const result = results.get(start.product_id)!
    const before = Number(product.on_hand)
    const after = Number(result.last_balance)
    const level = product.reorder_level === null ? null : Number(product.reorder_level)
    if (start.check !== null && level !== null && before > level && after <= level) {
      await scope.events.publish(trx, scope.schemaName, {
        type: 'StockAtReorderLevel',
        businessId: scope.businessId,
        userId: scope.userId,
        payload: {
          productId: product.id,
          sku: product.sku,
          name: product.name,
          onHand: after,
          reorderLevel: level,
        },
      })
    }
    // Later movements in this transaction see the new stock as their "before".
    product.on_hand = result.last_balance!
    product.average_cost = result.last_average!
  }
  return results
}

/**
 * Posts one movement of a product the caller has locked (FOR UPDATE) in its transaction and
 * re-values every later entry; refuses (409, naming the first date and its shortfall) a movement
 * that takes stock out and leaves any point in time below zero unless negative stock is allowed.
 * Returns the new entry as re-valued.
 */
export async function postMovement(
  trx: Transaction<Tables>,
  scope: PostingScope,
  product: ProductRow,
  movement: Movement,
  negativeAllowed?: boolean,
): Promise<PostedEntry> {
  const entry = entryOf(scope, product.id, movement)
  const refuse = async (s: Shortfall) => stockShortfall(s.date, s.shortBy)
  const results = await postEntries(
    trx,
    scope,
    new Map([[product.id, product]]),
    [entry],
    refuse,
    negativeAllowed,
  )
  const result = results.get(product.id)!
  return { id: entry.id, balance: result.first_balance!, unit_cost: result.first_unit_cost! }
}

/**
 * Posts movements of several locked products (in any order, a product any number of times) with
 * one re-valuation per product, all or nothing, in a fixed number of statements. A shortfall names
 * the row (`<field>.<index>.quantity`) whose entry is the first below zero, or, when that is an
 * entry already in the ledger, the last outgoing row of that product at or before it in ledger
 * order. Returns the new entries' ids (in the order of `postings`) and each product's re-valuation.
 */
export async function postProductMovements(
  trx: Transaction<Tables>,
  scope: PostingScope,
  postings: readonly ProductMovement[],
  rowField: (index: number) => string,
  negativeAllowed?: boolean,
): Promise<{ entryIds: string[]; stock: Map<string, Revaluation> }> {
  const entries = postings.map((p) => entryOf(scope, p.product.id, p.movement))
  const indexOf = new Map(entries.map((e, i) => [e.id, i]))
  const refuse = async (s: Shortfall) => {
    const outgoing = entries
      .filter((e) => e.product_id === s.productId && Number(e.quantity) < 0)
      .map((e) => e.id)
    const row =
      indexOf.get(s.id) ??
      indexOf.get((await lastOutgoingAtOrBefore(trx, scope.schemaName, s.productId, outgoing, s.id)) ?? '')
    return stockShortfall(s.date, s.shortBy, `${rowField(row ?? 0)}.quantity`)
  }
  const products = new Map(postings.map((p) => [p.product.id, p.product]))
  const stock = await postEntries(trx, scope, products, entries, refuse, negativeAllowed)
  return { entryIds: entries.map((e) => e.id), stock }
}
