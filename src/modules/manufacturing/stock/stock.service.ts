import type { Database } from '../../../db/database.js'
import { validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { asOfInstant } from '../as-of.js'
import { findProduct, lockProduct, productNotFound } from '../products/index.js'
import { entryValues, stockAsOf } from './ledger.repository.js'
import { postingScopeOf, postMovement } from './ledger.service.js'
import { productArchived, serviceHoldsNoStock } from './stock.errors.js'
import { toEntry } from './stock.mapper.js'
import { findEntry, scopedLedger } from './stock.repository.js'
import {
  ENTRY_TYPES,
  type LedgerEntryResponse,
  type StockMovementRequest,
  type StockResponse,
} from './stock.schemas.js'
import { checkMovement } from './stock-movement.rules.js'

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
    if (product.type === 'Service') throw serviceHoldsNoStock()
    if (product.archived_at !== null) throw productArchived()
    const entry = await postMovement(trx, postingScopeOf(services.events, auth), product, movement)
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
