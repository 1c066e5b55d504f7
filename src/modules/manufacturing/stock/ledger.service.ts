import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { AppError } from '../../../errors.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import { readSetting } from '../../organisation/index.js'
import { round } from '../decimals.js'
import type { ProductRow } from '../products/products.repository.js'
import { insertAndRevalue, latestValues, type RecomputedEntry } from './ledger.repository.js'
import { updateStockSummary } from './stock.repository.js'

export type EntryType = 'Receipt' | 'Issue' | 'Adjustment' | 'WorkOrderIssue' | 'WorkOrderReceipt'

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

export const stockShortfall = (date: Date, shortfall: number) =>
  new AppError(
    409,
    'stock_shortfall',
    `The stock would fall below zero on ${date.toISOString()}, short by ${shortfall}.`,
    [{ field: 'quantity', message: `short by ${shortfall} on ${date.toISOString()}` }],
  )

export const allowsNegative = (trx: Transaction<Tables>, scope: PostingScope) =>
  readSetting(trx, scope.schemaName, scope.businessId, 'stock.allowNegative')

/**
 * Posts one movement of a product the caller has locked (FOR UPDATE) in its transaction: inserts
 * it, re-values every later entry, refuses (409, naming the first date and its shortfall) a
 * movement that takes stock out and leaves any point in time below zero unless negative stock is
 * allowed, keeps the product's current stock, and publishes StockAtReorderLevel when the movement
 * takes the stock from above the reorder level to it or below. Returns the new entry as recomputed.
 */
export async function postMovement(
  trx: Transaction<Tables>,
  scope: PostingScope,
  product: ProductRow,
  movement: Movement,
  negativeAllowed?: boolean,
): Promise<RecomputedEntry> {
  const id = newId()
  const entries = await insertAndRevalue(trx, scope.schemaName, {
    id,
    business_id: scope.businessId,
    product_id: product.id,
    type: movement.type,
    quantity: String(movement.quantity),
    received_cost: movement.receivedCost === null ? null : String(movement.receivedCost),
    effective_date: movement.effectiveDate,
    reason: movement.reason,
    reference: movement.reference,
    work_order_id: movement.workOrderId,
    created_by_user_id: scope.userId,
  })
  if (movement.quantity < 0) {
    const below = entries.find((e) => Number(e.balance) < 0)
    if (below && !(negativeAllowed ?? (await allowsNegative(trx, scope))))
      throw stockShortfall(below.effective_date, round(-Number(below.balance)))
  }
  const latest = await latestValues(trx, scope.schemaName, product.id)
  await updateStockSummary(trx, scope.schemaName, product.id, latest.balance, latest.average_cost)
  const before = Number(product.on_hand)
  const after = Number(latest.balance)
  const level = product.reorder_level === null ? null : Number(product.reorder_level)
  if (movement.quantity < 0 && level !== null && before > level && after <= level) {
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
  product.on_hand = latest.balance
  product.average_cost = latest.average_cost
  return entries.find((e) => e.id === id)!
}
