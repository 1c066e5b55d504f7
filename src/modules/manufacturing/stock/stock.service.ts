import type { Database } from '../../../db/database.js'
import { conflict, type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { asOfInstant } from '../as-of.js'
import { decimalReasons } from '../decimals.js'
import { findProduct, lockProduct, type ProductRow } from '../products/products.repository.js'
import { productNotFound } from '../products/products.service.js'
import { type EntryValues, entryValues, stockAsOf } from './ledger.repository.js'
import { type Movement, postMovement } from './ledger.service.js'
import { findEntry, type LedgerRow, scopedLedger } from './stock.repository.js'
import {
  ENTRY_TYPES,
  type LedgerEntryResponse,
  type StockMovementRequest,
  type StockResponse,
} from './stock.schemas.js'

/** Clock skew tolerated on "now" for an effective date sent by a client. */
const FUTURE_SKEW_MS = 60_000

export const noStock = (product: ProductRow) =>
  product.type === 'Service'
    ? conflict('service_holds_no_stock', 'A Service product holds no stock.')
    : conflict('product_archived', 'An archived product takes no stock movements.')

export function toEntry(row: LedgerRow, values: EntryValues | undefined): LedgerEntryResponse {
  return {
    id: row.id,
    productId: row.product_id,
    type: row.type as LedgerEntryResponse['type'],
    quantity: Number(row.quantity),
    unitCost: Number(values?.unit_cost ?? 0),
    value: Number(values?.value ?? 0),
    effectiveDate: row.effective_date.toISOString(),
    reason: row.reason,
    reference: row.reference,
    workOrderId: row.work_order_id,
    balance: Number(values?.balance ?? 0),
    averageCost: Number(values?.average_cost ?? 0),
    createdByUserId: row.created_by_user_id,
    dateCreated: row.date_created.toISOString(),
  }
}

/** An effective date sent by a client: default now, never in the future. */
export function effectiveDateOf(value: string | undefined, field = 'effectiveDate'): Date {
  const reasons: Reason[] = []
  const date = checkedEffectiveDate(value, field, reasons)
  if (reasons.length > 0) throw validationFailed(reasons)
  return date
}

function checkedEffectiveDate(value: string | undefined, field: string, reasons: Reason[]): Date {
  if (value === undefined) return new Date()
  const date = new Date(value)
  if (date.getTime() > Date.now() + FUTURE_SKEW_MS)
    reasons.push({ field, message: 'must not lie in the future' })
  return date
}

/**
 * A movement as sent, checked beyond its schema; each reason names its field after `prefix`
 * (`movements.3.` in a bulk request). Returns null with the reasons when it is not valid.
 */
export function checkMovement(
  request: StockMovementRequest,
  prefix = '',
): { movement: Movement | null; reasons: Reason[] } {
  const reasons = [
    ...decimalReasons({ quantity: request.quantity }, 4, prefix),
    ...decimalReasons({ unitCost: request.unitCost }, 6, prefix),
  ]
  const cost = request.unitCost ?? null
  const { type, quantity } = request
  const reason = (field: string, message: string) => reasons.push({ field: `${prefix}${field}`, message })
  if (type !== 'Adjustment' && quantity <= 0) reason('quantity', 'must be greater than 0')
  if (type === 'Adjustment' && quantity === 0) reason('quantity', 'must not be 0')
  if (type === 'Receipt' && cost === null) reason('unitCost', 'is required on a Receipt')
  if (type === 'Issue' && cost !== null) reason('unitCost', 'an Issue moves at the moving average')
  if (type === 'Adjustment' && quantity < 0 && cost !== null)
    reason('unitCost', 'a negative Adjustment moves at the moving average')
  const effectiveDate = checkedEffectiveDate(request.effectiveDate, `${prefix}effectiveDate`, reasons)
  if (reasons.length > 0) return { movement: null, reasons }
  const movement: Movement = {
    type,
    quantity: type === 'Issue' ? -quantity : quantity,
    receivedCost: cost,
    effectiveDate,
    reason: request.reason?.trim() || null,
    reference: request.reference?.trim() || null,
    workOrderId: null,
  }
  return { movement, reasons }
}

/** Posts a receipt, issue or adjustment under the product's row lock (movements of one product queue). */
export async function postStockMovement(
  { database, services }: AppDeps,
  auth: BusinessAuth,
  productId: string,
  request: StockMovementRequest,
): Promise<LedgerEntryResponse> {
  const { movement, reasons } = checkMovement(request)
  if (!movement) throw validationFailed(reasons)
  const { schemaName, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, schemaName, businessId, productId)
    if (!product) throw productNotFound()
    if (product.type === 'Service' || product.archived_at !== null) throw noStock(product)
    const entry = await postMovement(
      trx,
      { events: services.events, schemaName, businessId, userId: auth.userId },
      product,
      movement,
    )
    const values = await entryValues(trx, schemaName, productId, [entry.id])
    return toEntry(await findEntry(trx, schemaName, businessId, productId, entry.id), values.get(entry.id))
  })
}

export async function getStock(
  database: Database,
  auth: BusinessAuth,
  productId: string,
  asOfDate: string | undefined,
): Promise<StockResponse> {
  const asOf = await asOfInstant(database.db, auth, asOfDate)
  const row = await stockAsOf(database.db, auth.schemaName, auth.businessId, productId, asOf)
  if (!row) throw productNotFound()
  return {
    productId,
    asOfDate: asOf.toISOString(),
    onHand: Number(row.balance ?? 0),
    unitCost: Number(row.average_cost ?? 0),
    value: Number(row.stock_value ?? 0),
  }
}

const LEDGER: ListSpec = {
  fields: {
    type: { column: 'l.type', type: 'enum', enumValues: ENTRY_TYPES },
    effectiveDate: { column: 'l.effective_date', type: 'datetime' },
    quantity: { column: 'l.quantity', type: 'number' },
    reference: { column: 'l.reference', type: 'string' },
    workOrderId: { column: 'l.work_order_id', type: 'uuid' },
    dateCreated: { column: 'l.date_created', type: 'datetime' },
  },
  search: ['l.reason', 'l.reference'],
  defaultOrder: [{ column: 'l.effective_date', direction: 'asc' }],
  tiebreak: 'l.seq',
}

export async function listLedger(
  database: Database,
  auth: BusinessAuth,
  productId: string,
  query: ListQuery,
) {
  if (!(await findProduct(database.db, auth.schemaName, auth.businessId, productId))) throw productNotFound()
  // One snapshot for the page and its running values, so a posting in between cannot mix them.
  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const scoped = scopedLedger(trx, auth.schemaName, auth.businessId, productId)
      const { rows, total, page } = await runList(scoped, query, LEDGER)
      const ids = rows.map((r) => r.id)
      const values = await entryValues(trx, auth.schemaName, productId, ids)
      return paged(
        'core',
        rows.map((row) => toEntry(row, values.get(row.id))),
        total,
        page,
      )
    })
}
