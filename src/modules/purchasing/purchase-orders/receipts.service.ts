import { newId } from '../../../db/ids.js'
import type { Executor } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { FieldMap } from '../../../http/odata/index.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import {
  effectiveDateOf,
  lockProducts,
  postingScopeOf,
  postProductMovements,
} from '../../manufacturing/index.js'
import { readSetting } from '../../organisation/index.js'
import {
  invalidPurchaseOrderTransition,
  overReceipt,
  productsNotReceivable,
  purchaseOrderNotFound,
  receiptAlreadyReversed,
  receiptNotFound,
  servicesNotReceivable,
} from './purchase-orders.errors.js'
import * as orders from './purchase-orders.repository.js'
import type { PurchaseOrderStatus } from './purchase-orders.schemas.js'
import * as repository from './receipts.repository.js'
import type { ReceiptRequest, ReceiptResponse, ReverseReceiptRequest } from './receipts.schemas.js'

/** Quantities are numeric(18, 4): compared and summed as whole 0.0001 units, so exactly. */
const units = (value: number | string) => Math.round(Number(value) * 10_000)
const fromUnits = (value: number) => value / 10_000
/** A tolerance setting above this counts as this: received quantities stay well within numeric(18, 4). */
const MAX_TOLERANCE_PERCENT = 1000

const RECEIVING: readonly PurchaseOrderStatus[] = ['Submitted', 'PartiallyReceived']
const REVERSING: readonly PurchaseOrderStatus[] = ['PartiallyReceived', 'Received']

const FIELDS = {
  effectiveDate: { column: 'r.effective_date', type: 'datetime' },
  reversedAt: { column: 'r.reversed_at', type: 'datetime' },
  dateCreated: { column: 'r.date_created', type: 'datetime' },
} as const satisfies FieldMap

const LIST: ListSpec = {
  fields: FIELDS,
  search: ['r.notes'],
  defaultOrder: [{ column: 'r.effective_date', direction: 'asc' }],
  tiebreak: 'r.id',
}

function toReceipt(row: repository.ReceiptRow): ReceiptResponse {
  return {
    id: row.id,
    purchaseOrderId: row.purchase_order_id,
    purchaseOrderNumber: row.number,
    purchaseOrderStatus: row.status as PurchaseOrderStatus,
    effectiveDate: row.effective_date.toISOString(),
    notes: row.notes,
    lines: row.lines.map((line) => ({
      ...line,
      quantity: Number(line.quantity),
      unitCost: Number(line.unitCost),
    })),
    reversedAt: row.reversed_at ? row.reversed_at.toISOString() : null,
    reversalEffectiveDate: row.reversal_effective_date ? row.reversal_effective_date.toISOString() : null,
    dateCreated: row.date_created.toISOString(),
  }
}

/** The status the lines leave the order in: Received when every line has all it ordered. */
function statusOf(lines: readonly { quantity: number; received: number }[]): PurchaseOrderStatus {
  if (lines.every((l) => l.received >= l.quantity)) return 'Received'
  return lines.some((l) => l.received > 0) ? 'PartiallyReceived' : 'Submitted'
}

export async function listReceipts(
  deps: AppDeps,
  auth: BusinessAuth,
  purchaseOrderId: string,
  query: ListQuery,
) {
  const db = deps.database.db
  if (!(await orders.findPurchaseOrder(db, auth.schemaName, auth.businessId, purchaseOrderId)))
    throw purchaseOrderNotFound()
  const scoped = repository.scopedReceipts(db, auth.schemaName, auth.businessId, purchaseOrderId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toReceipt), total, page)
}

async function loadReceipt(db: Executor, auth: BusinessAuth, poId: string, id: string) {
  const row = await repository.findReceipt(db, auth.schemaName, auth.businessId, poId, id)
  if (!row) throw receiptNotFound()
  return toReceipt(row)
}

/**
 * Receives part or all of some lines. Under the order's and its lines' row locks (so two receipts
 * of one line run one after the other and the second sees the first's quantity), checks each line
 * against what it ordered plus the tolerance, then posts one PurchaseReceipt per line at the line's
 * unit cost at the effective date (the ledger re-values later entries), all in one transaction.
 */
export async function receive(
  deps: AppDeps,
  auth: BusinessAuth,
  purchaseOrderId: string,
  request: ReceiptRequest,
): Promise<ReceiptResponse> {
  const effectiveDate = effectiveDateOf(request.effectiveDate)
  const reasons: Reason[] = []
  request.lines.forEach((line, index) => {
    const given = [line.lineId, line.productId].filter((v) => v !== undefined && v !== null).length
    if (given !== 1)
      reasons.push({ field: `lines.${index}`, message: 'needs exactly one of lineId or productId' })
    if (Number(line.quantity.toFixed(4)) !== line.quantity)
      reasons.push({ field: `lines.${index}.quantity`, message: 'must have at most 4 decimal places' })
  })
  if (reasons.length > 0) throw validationFailed(reasons)
  const { schemaName: schema, businessId } = auth
  return deps.database.db.transaction().execute(async (trx) => {
    const order = await orders.lockPurchaseOrder(trx, schema, businessId, purchaseOrderId)
    if (!order) throw purchaseOrderNotFound()
    const locked = await orders.lockLines(trx, schema, purchaseOrderId)
    const byId = new Map(locked.map((l) => [l.id, l]))
    const byProduct = new Map(locked.map((l) => [l.product_id, l]))
    const taken = new Map<string, number>()
    const picked = request.lines.map((line, index) => {
      const target = line.lineId ? byId.get(line.lineId) : byProduct.get(line.productId ?? '')
      const field = `lines.${index}.${line.lineId ? 'lineId' : 'productId'}`
      if (!target) reasons.push({ field, message: 'is not a line of this purchase order' })
      else if (taken.has(target.id))
        reasons.push({ field, message: `receives the same line as lines.${taken.get(target.id)}` })
      else taken.set(target.id, index)
      return { index, line: target, quantity: line.quantity }
    })
    if (reasons.length > 0) throw validationFailed(reasons)
    const from = order.status as PurchaseOrderStatus
    const after = locked.map((l) => ({
      quantity: units(l.quantity),
      received: units(l.received_quantity) + units(picked.find((p) => p.line?.id === l.id)?.quantity ?? 0),
    }))
    const to = statusOf(after)
    if (!RECEIVING.includes(from)) throw invalidPurchaseOrderTransition(from, to, RECEIVING)
    const setting = Number(await readSetting(trx, schema, businessId, 'purchasing.receiptTolerancePercent'))
    const tolerance = Math.min(MAX_TOLERANCE_PERCENT, Math.max(0, setting || 0))
    const over: Reason[] = []
    for (const { index, line, quantity } of picked) {
      // The epsilon keeps a product like 100000 × 1.1 = 109999.99999… from refusing exactly 110%.
      const allowed = Math.floor(units(line!.quantity) * (1 + tolerance / 100) + 1e-6)
      const total = units(line!.received_quantity) + units(quantity)
      if (total > allowed)
        over.push({
          field: `lines.${index}.quantity`,
          message: `would bring the line to ${fromUnits(total)} received of ${Number(line!.quantity)} ordered (at most ${fromUnits(allowed)})`,
        })
    }
    if (over.length > 0) throw overReceipt(over)
    const products = new Map(
      (await lockProducts(trx, schema, businessId, [...new Set(picked.map((p) => p.line!.product_id))])).map(
        (p) => [p.id, p],
      ),
    )
    const refused = picked
      .filter((p) => products.get(p.line!.product_id)?.archived_at !== null)
      .map((p) => ({ field: `lines.${p.index}.quantity`, message: 'the product is archived' }))
    if (refused.length > 0) throw productsNotReceivable(refused)
    const services = picked
      .filter((p) => products.get(p.line!.product_id)?.type === 'Service')
      .map((p) => ({ field: `lines.${p.index}.quantity`, message: 'the product is a Service' }))
    if (services.length > 0) throw servicesNotReceivable(services)
    const receiptId = newId()
    await repository.insertReceipt(trx, schema, {
      id: receiptId,
      business_id: businessId,
      purchase_order_id: purchaseOrderId,
      effective_date: effectiveDate,
      notes: request.notes?.trim() || null,
      created_by_user_id: auth.userId,
    })
    const scope = postingScopeOf(deps.services.events, auth)
    const { entryIds } = await postProductMovements(
      trx,
      scope,
      picked.map(({ line, quantity }) => ({
        product: products.get(line!.product_id)!,
        movement: {
          type: 'PurchaseReceipt',
          quantity,
          receivedCost: Number(line!.unit_cost),
          effectiveDate,
          reason: null,
          reference: order.number,
          workOrderId: null,
        },
      })),
      (index) => `lines.${picked[index]?.index ?? index}`,
    )
    const received = picked.map(({ line, quantity }, k) => ({
      id: newId(),
      receipt_id: receiptId,
      purchase_order_line_id: line!.id,
      product_id: line!.product_id,
      quantity,
      unit_cost: line!.unit_cost,
      ledger_entry_id: entryIds[k]!,
    }))
    await repository.insertReceiptLines(trx, schema, received)
    await orders.addReceived(
      trx,
      schema,
      picked.map((p) => ({ lineId: p.line!.id, delta: p.quantity })),
    )
    await orders.movePurchaseOrder(trx, schema, purchaseOrderId, to)
    await deps.services.events.publish(trx, schema, {
      type: 'PurchaseOrderReceived',
      businessId,
      userId: auth.userId,
      payload: {
        purchaseOrderId,
        number: order.number,
        supplierId: order.supplier_id,
        status: to,
        receiptId,
        lines: picked.map((p) => ({ productId: p.line!.product_id, quantity: p.quantity })),
      },
    })
    return loadReceipt(trx, auth, purchaseOrderId, receiptId)
  })
}

/**
 * Reverses a receipt: one PurchaseReceiptReversal per line at the effective date (the ledger
 * refuses it with 409 stock_shortfall when stock would go below zero from then on), the received
 * quantities reduced and the order moved back (PartiallyReceived, or Submitted when nothing is
 * left received). The receipt stays, marked reversed.
 */
export async function reverseReceipt(
  deps: AppDeps,
  auth: BusinessAuth,
  purchaseOrderId: string,
  receiptId: string,
  request: ReverseReceiptRequest,
): Promise<ReceiptResponse> {
  const effectiveDate = effectiveDateOf(request.effectiveDate)
  const { schemaName: schema, businessId } = auth
  return deps.database.db.transaction().execute(async (trx) => {
    const order = await orders.lockPurchaseOrder(trx, schema, businessId, purchaseOrderId)
    if (!order) throw purchaseOrderNotFound()
    const receipt = await repository.lockReceipt(trx, schema, purchaseOrderId, receiptId)
    if (!receipt) throw receiptNotFound()
    if (receipt.reversed_at !== null) throw receiptAlreadyReversed()
    if (effectiveDate < receipt.effective_date)
      throw validationFailed([
        {
          field: 'effectiveDate',
          message: `must not be before the receipt (${receipt.effective_date.toISOString()})`,
        },
      ])
    const locked = await orders.lockLines(trx, schema, purchaseOrderId)
    const back = new Map(receipt.lines.map((l) => [l.purchase_order_line_id, units(l.quantity)]))
    const to = statusOf(
      locked.map((l) => ({
        quantity: units(l.quantity),
        received: units(l.received_quantity) - (back.get(l.id) ?? 0),
      })),
    )
    const from = order.status as PurchaseOrderStatus
    if (!REVERSING.includes(from)) throw invalidPurchaseOrderTransition(from, to, REVERSING)
    const products = new Map(
      (await lockProducts(trx, schema, businessId, [...new Set(receipt.lines.map((l) => l.product_id))])).map(
        (p) => [p.id, p],
      ),
    )
    const scope = postingScopeOf(deps.services.events, auth)
    // A shortfall names the receipt's line (lines.<n>.quantity) whose reversal takes stock below zero.
    const { entryIds } = await postProductMovements(
      trx,
      scope,
      receipt.lines.map((line) => ({
        product: products.get(line.product_id)!,
        movement: {
          type: 'PurchaseReceiptReversal',
          quantity: -Number(line.quantity),
          receivedCost: null,
          effectiveDate,
          reason: null,
          reference: order.number,
          workOrderId: null,
        },
      })),
      (index) => `lines.${index}`,
    )
    await repository.setReversalEntries(
      trx,
      schema,
      receipt.lines.map((line, k) => ({ lineId: line.id, entryId: entryIds[k]! })),
    )
    await orders.addReceived(
      trx,
      schema,
      receipt.lines.map((l) => ({ lineId: l.purchase_order_line_id, delta: -Number(l.quantity) })),
    )
    await repository.markReversed(trx, schema, receiptId, effectiveDate, auth.userId)
    if (to !== from) await orders.movePurchaseOrder(trx, schema, purchaseOrderId, to)
    return loadReceipt(trx, auth, purchaseOrderId, receiptId)
  })
}
