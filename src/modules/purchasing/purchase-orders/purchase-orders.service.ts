import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { checkBusinessDate } from '../../../http/business-dates.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { FieldMap } from '../../../http/odata/index.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { findPurchasingSupplier, termsForProducts } from '../index.js'
import { notifyOverdue } from './overdue.service.js'
import {
  purchaseOrderNotEditable,
  purchaseOrderNotFound,
  supplierNotAvailable,
} from './purchase-orders.errors.js'
import { toPurchaseOrder, withLines } from './purchase-orders.mapper.js'
import * as repository from './purchase-orders.repository.js'
import {
  PURCHASE_ORDER_STATUSES,
  type PurchaseOrderRequest,
  type PurchaseOrderResponse,
} from './purchase-orders.schemas.js'

const FIELDS = {
  number: { column: 'po.number', type: 'string' },
  status: { column: 'po.status', type: 'enum', enumValues: PURCHASE_ORDER_STATUSES },
  supplierId: { column: 'po.supplier_id', type: 'uuid' },
  currency: { column: 'po.currency', type: 'string' },
  total: { column: 'po.total', type: 'number' },
  expectedDate: { column: 'po.expected_date', type: 'date' },
  submittedAt: { column: 'po.submitted_at', type: 'datetime' },
  receivedAt: { column: 'po.received_at', type: 'datetime' },
  closedAt: { column: 'po.closed_at', type: 'datetime' },
  dateCreated: { column: 'po.date_created', type: 'datetime' },
  dateModified: { column: 'po.date_modified', type: 'datetime' },
} as const satisfies FieldMap

const LIST: ListSpec = {
  fields: FIELDS,
  search: ['po.number', 'po.notes', 's.name'],
  defaultOrder: [{ column: 'po.date_created', direction: 'desc' }],
  tiebreak: 'po.id',
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
/** numeric(18, 4): a total above this could not be stored. */
const MAX_TOTAL = 99_999_999_999_999
const places = (value: number, count: number) => Number(value.toFixed(count)) === value

/** The business's purchase orders; overdue ones are announced first (PurchaseOrderOverdue, once each). */
export async function listPurchaseOrders(deps: AppDeps, auth: BusinessAuth, query: ListQuery) {
  await notifyOverdue(deps, auth)
  const db = deps.database.db
  const { rows, total, page } = await runList(
    repository.scopedPurchaseOrders(db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  const lines = await repository.linesOf(
    db,
    auth.schemaName,
    rows.map((r) => r.id),
  )
  return paged('core', withLines(rows, lines), total, page)
}

/** The purchase order as the API shows it; within a transaction, as that transaction sees it. */
export async function loadPurchaseOrder(db: Executor, auth: BusinessAuth, id: string) {
  const row = await repository.findPurchaseOrder(db, auth.schemaName, auth.businessId, id)
  if (!row) throw purchaseOrderNotFound()
  return toPurchaseOrder(row, await repository.linesOf(db, auth.schemaName, [row.id]))
}

export const getPurchaseOrder = (database: Database, auth: BusinessAuth, id: string) =>
  loadPurchaseOrder(database.db, auth, id)

/** What the schema cannot check on its own: decimals, currency, one line per product. */
function checkRequest(request: PurchaseOrderRequest) {
  const reasons: Reason[] = []
  const currency = request.currency === undefined ? undefined : request.currency.trim().toUpperCase()
  if (currency !== undefined && !CURRENCIES.has(currency))
    reasons.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as USD or ZAR' })
  const seen = new Set<string>()
  request.lines.forEach((line, index) => {
    const at = `lines.${index}`
    if (seen.has(line.productId)) reasons.push({ field: `${at}.productId`, message: 'is on another line' })
    seen.add(line.productId)
    if (!places(line.quantity, 4))
      reasons.push({ field: `${at}.quantity`, message: 'must have at most 4 decimal places' })
    if (typeof line.unitCost === 'number' && !places(line.unitCost, 6))
      reasons.push({ field: `${at}.unitCost`, message: 'must have at most 6 decimal places' })
  })
  checkBusinessDate(reasons, 'expectedDate', request.expectedDate)
  if (reasons.length > 0) throw validationFailed(reasons)
  return { currency, expectedDate: request.expectedDate ?? null, notes: request.notes?.trim() || null }
}

/**
 * The lines to store: each product the business's and able to take stock, each unit cost as sent
 * or else the supplier's for that product; every problem named by its row.
 */
async function resolveLines(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  supplierId: string,
  request: PurchaseOrderRequest,
): Promise<repository.LineValues[]> {
  const ids = request.lines.map((l) => l.productId)
  const [products, terms] = await Promise.all([
    repository.productsOf(trx, auth.schemaName, auth.businessId, ids),
    termsForProducts(trx, auth.schemaName, auth.businessId, supplierId, ids),
  ])
  const reasons: Reason[] = []
  let total = 0
  const lines = request.lines.map((line, index) => {
    const at = `lines.${index}`
    const product = products.get(line.productId)
    if (!product) reasons.push({ field: `${at}.productId`, message: 'must be a product of this business' })
    else if (product.type === 'Service')
      reasons.push({ field: `${at}.productId`, message: 'is a Service product, which holds no stock' })
    else if (product.archived)
      reasons.push({ field: `${at}.productId`, message: 'is archived and takes no stock movements' })
    const unitCost = line.unitCost ?? terms.get(line.productId)?.unitCost
    if (unitCost === undefined)
      reasons.push({
        field: `${at}.unitCost`,
        message: 'is required: the supplier has no terms (unit cost) for this product',
      })
    total += line.quantity * Number(unitCost ?? 0)
    if (total > MAX_TOTAL && !reasons.some((r) => r.message.startsWith('makes the total')))
      reasons.push({ field: `${at}.quantity`, message: 'makes the total too large to store' })
    return { id: newId(), product_id: line.productId, quantity: line.quantity, unit_cost: unitCost ?? 0 }
  })
  if (reasons.length > 0) throw validationFailed(reasons)
  return lines
}

/** A live, active supplier of the business, share-locked until commit (it cannot be deleted meanwhile). */
async function supplierFor(trx: Transaction<Tables>, auth: BusinessAuth, supplierId: string) {
  const supplier = await findPurchasingSupplier(trx, auth.schemaName, auth.businessId, supplierId, 'share')
  if (!supplier?.isActive) throw supplierNotAvailable()
  return supplier
}

/** Creates a Draft purchase order and its lines in one transaction; the total is summed in SQL. */
export async function createPurchaseOrder(
  database: Database,
  auth: BusinessAuth,
  request: PurchaseOrderRequest,
): Promise<PurchaseOrderResponse> {
  const checked = checkRequest(request)
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const supplier = await supplierFor(trx, auth, request.supplierId)
    const lines = await resolveLines(trx, auth, supplier.id, request)
    const id = newId()
    await repository.insertPurchaseOrder(trx, schema, {
      id,
      business_id: businessId,
      number: await nextCode(trx, schema, businessId, 'purchase_order', 'PO'),
      supplier_id: supplier.id,
      currency: checked.currency ?? supplier.currency,
      expected_date: checked.expectedDate,
      notes: checked.notes,
    })
    await repository.replaceLines(trx, schema, businessId, id, lines)
    return loadPurchaseOrder(trx, auth, id)
  })
}

/** Replaces a Draft purchase order and all its lines; any other status is a 409. */
export async function updatePurchaseOrder(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: PurchaseOrderRequest,
): Promise<PurchaseOrderResponse> {
  const checked = checkRequest(request)
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const current = await repository.lockPurchaseOrder(trx, schema, businessId, id)
    if (!current) throw purchaseOrderNotFound()
    if (current.status !== 'Draft') throw purchaseOrderNotEditable(current.status)
    const supplier = await supplierFor(trx, auth, request.supplierId)
    const lines = await resolveLines(trx, auth, supplier.id, request)
    await repository.updatePurchaseOrder(trx, schema, id, {
      supplier_id: supplier.id,
      currency:
        checked.currency ?? (supplier.id === current.supplier_id ? current.currency : supplier.currency),
      expected_date: checked.expectedDate,
      notes: checked.notes,
    })
    await repository.replaceLines(trx, schema, businessId, id, lines)
    return loadPurchaseOrder(trx, auth, id)
  })
}

/** Deletes a Draft purchase order (nothing was sent or received); any other status is a 409. */
export async function deletePurchaseOrder(database: Database, auth: BusinessAuth, id: string) {
  return database.db.transaction().execute(async (trx) => {
    const current = await repository.lockPurchaseOrder(trx, auth.schemaName, auth.businessId, id)
    if (!current) throw purchaseOrderNotFound()
    if (current.status !== 'Draft') throw purchaseOrderNotEditable(current.status)
    await repository.deletePurchaseOrder(trx, auth.schemaName, id)
    return true
  })
}
