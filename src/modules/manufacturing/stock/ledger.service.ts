import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import type { AppError } from '../../../errors.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import { readSetting } from '../../organisation/index.js'
import { round } from '../decimals.js'
import type { ProductRow } from '../products/products.repository.js'
import {
  insertEntries,
  type LedgerKey,
  lastOutgoingAtOrBefore,
  type NewEntry,
  type Revaluation,
  revalue,
} from './ledger.repository.js'
import { stockShortfall } from './stock.errors.js'
import { updateStockSummary } from './stock.repository.js'
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
  /** the first entry below zero */
  id: string
  date: Date
  shortBy: number
}

/**
 * Inserts the entries of one product (locked FOR UPDATE by the caller), then re-values the ledger
 * once, from the earliest of them. When any of them takes stock out, a balance below zero at or
 * after the earliest such entry refuses the posting (`refuse` builds the error; nothing is written
 * by the re-valuation) unless negative stock is allowed. Then keeps the product's current stock
 * and publishes StockAtReorderLevel when an outgoing posting takes the stock from above the
 * reorder level to it or below.
 */
async function postEntries(
  trx: Transaction<Tables>,
  scope: PostingScope,
  product: ProductRow,
  entries: readonly NewEntry[],
  refuse: (shortfall: Shortfall) => Promise<AppError>,
  negativeAllowed: boolean | undefined,
): Promise<Revaluation> {
  const { from, check } = await insertEntries(trx, scope.schemaName, entries)
  const run = (checked: LedgerKey | null, stop: boolean) =>
    revalue(trx, scope.schemaName, product.id, from, checked, stop)
  let result = await run(negativeAllowed === true ? null : check, negativeAllowed !== true)
  if (result.short_date !== null) {
    if (!(negativeAllowed ?? (await allowsNegative(trx, scope))))
      throw await refuse({
        id: result.short_id!,
        date: result.short_date,
        shortBy: round(-Number(result.short_balance)),
      })
    result = await run(null, false)
  }
  await updateStockSummary(trx, scope.schemaName, product.id, result.last_balance!, result.last_average!)
  const before = Number(product.on_hand)
  const after = Number(result.last_balance)
  const level = product.reorder_level === null ? null : Number(product.reorder_level)
  if (check !== null && level !== null && before > level && after <= level) {
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
  return result
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
  const result = await postEntries(trx, scope, product, [entry], refuse, negativeAllowed)
  return { id: entry.id, balance: result.first_balance!, unit_cost: result.first_unit_cost! }
}

/**
 * Posts many movements of one locked product with one re-valuation: all or nothing. A shortfall
 * names the row (`<field>.<index>.quantity`) whose entry is the first below zero, or, when that is
 * an entry already in the ledger, the last outgoing row at or before it in ledger order.
 */
export async function postMovements(
  trx: Transaction<Tables>,
  scope: PostingScope,
  product: ProductRow,
  movements: readonly Movement[],
  rowField: (index: number) => string,
): Promise<Revaluation> {
  const entries = movements.map((m) => entryOf(scope, product.id, m))
  const indexOf = new Map(entries.map((e, i) => [e.id, i]))
  const refuse = async (s: Shortfall) => {
    const outgoing = entries.filter((e) => Number(e.quantity) < 0).map((e) => e.id)
    const row =
      indexOf.get(s.id) ??
      indexOf.get((await lastOutgoingAtOrBefore(trx, scope.schemaName, product.id, outgoing, s.id)) ?? '')
    return stockShortfall(s.date, s.shortBy, `${rowField(row ?? 0)}.quantity`)
  }
  return postEntries(trx, scope, product, entries, refuse, undefined)
}
