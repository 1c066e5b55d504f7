import type { Transaction } from 'kysely'
import { newId } from '../../../db/ids.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import * as repository from './supplier-products.repository.js'
import type { SupplierProductRequest, SupplierProductResponse } from './supplier-products.schemas.js'
import { productNotFound, supplierInactive, supplierNotFound, termsNotFound } from './suppliers.errors.js'
import { findSupplier, lockSupplier } from './suppliers.repository.js'

const LIST: ListSpec = {
  fields: {
    productId: { column: 'sp.product_id', type: 'uuid' },
    productSku: { column: 'p.sku', type: 'string' },
    productName: { column: 'p.name', type: 'string' },
    supplierSku: { column: 'sp.supplier_sku', type: 'string' },
    unitCost: { column: 'sp.unit_cost', type: 'number' },
    minimumOrderQuantity: { column: 'sp.minimum_order_quantity', type: 'number' },
    leadTimeDays: { column: 'sp.lead_time_days', type: 'number' },
    isPreferred: { column: 'sp.is_preferred', type: 'boolean' },
    dateCreated: { column: 'sp.date_created', type: 'datetime' },
    dateModified: { column: 'sp.date_modified', type: 'datetime' },
  },
  search: ['p.sku', 'p.name', 'sp.supplier_sku'],
  defaultOrder: [{ column: 'p.sku', direction: 'asc' }],
  tiebreak: 'sp.id',
}

const hasPlaces = (value: number, places: number) => Number(value.toFixed(places)) === value

export function toTerms(row: repository.TermsRow): SupplierProductResponse {
  return {
    supplierId: row.supplier_id,
    productId: row.product_id,
    productSku: row.product_sku,
    productName: row.product_name,
    supplierSku: row.supplier_sku,
    unitCost: Number(row.unit_cost),
    currency: row.currency,
    minimumOrderQuantity: Number(row.minimum_order_quantity),
    leadTimeDays: row.lead_time_days,
    effectiveLeadTimeDays: row.effective_lead_time_days,
    isPreferred: row.is_preferred,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

async function assertLiveSupplier(db: Executor, auth: BusinessAuth, supplierId: string) {
  if (!(await findSupplier(db, auth.schemaName, auth.businessId, supplierId))) throw supplierNotFound()
}

export async function listTerms(db: Executor, auth: BusinessAuth, supplierId: string, query: ListQuery) {
  await assertLiveSupplier(db, auth, supplierId)
  const { rows, total, page } = await runList(
    repository.scopedTerms(db, auth.schemaName, auth.businessId, supplierId),
    query,
    LIST,
  )
  return paged('core', rows.map(toTerms), total, page)
}

export async function getTerms(db: Executor, auth: BusinessAuth, supplierId: string, productId: string) {
  await assertLiveSupplier(db, auth, supplierId)
  const row = await repository.findTerms(db, auth.schemaName, auth.businessId, supplierId, productId)
  if (!row) throw termsNotFound()
  return toTerms(row)
}

function termsValues(request: SupplierProductRequest): repository.TermsValues {
  const reasons: Reason[] = []
  if (!hasPlaces(request.unitCost, 6))
    reasons.push({ field: 'unitCost', message: 'must have at most 6 decimal places' })
  if (request.minimumOrderQuantity !== undefined && !hasPlaces(request.minimumOrderQuantity, 4))
    reasons.push({ field: 'minimumOrderQuantity', message: 'must have at most 4 decimal places' })
  if (reasons.length > 0) throw validationFailed(reasons)
  return {
    supplier_sku: request.supplierSku?.trim() || null,
    unit_cost: request.unitCost,
    minimum_order_quantity: request.minimumOrderQuantity ?? 0,
    lead_time_days: request.leadTimeDays ?? null,
    is_preferred: request.isPreferred ?? false,
  }
}

/** The live supplier, locked against deletion, and the product of the business, locked per `preferred`. */
async function lockBoth(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  supplierId: string,
  productId: string,
  preferred: boolean,
) {
  const supplier = await lockSupplier(trx, auth.schemaName, auth.businessId, supplierId, 'share')
  if (!supplier) throw supplierNotFound()
  if (!(await repository.lockProductForTerms(trx, auth.schemaName, auth.businessId, productId, preferred)))
    throw productNotFound()
  return supplier
}

/**
 * Creates or replaces the supplier's terms for the product. Making it preferred clears the
 * previous preferred supplier in the same transaction, under the product's row lock, so two
 * concurrent "preferred" writes leave exactly one (the later).
 */
export async function putTerms(
  db: Executor,
  auth: BusinessAuth,
  supplierId: string,
  productId: string,
  request: SupplierProductRequest,
) {
  const values = termsValues(request)
  return db.transaction().execute(async (trx) => {
    const supplier = await lockBoth(trx, auth, supplierId, productId, values.is_preferred)
    if (values.is_preferred && !supplier.is_active) throw supplierInactive()
    if (values.is_preferred)
      await repository.clearOtherPreferred(trx, auth.schemaName, auth.businessId, supplierId, productId)
    await repository.upsertTerms(trx, auth.schemaName, {
      ...values,
      id: newId(),
      business_id: auth.businessId,
      supplier_id: supplierId,
      product_id: productId,
    })
    const row = await repository.findTerms(trx, auth.schemaName, auth.businessId, supplierId, productId)
    if (!row) throw termsNotFound()
    return toTerms(row)
  })
}

export async function deleteTerms(db: Executor, auth: BusinessAuth, supplierId: string, productId: string) {
  return db.transaction().execute(async (trx) => {
    await lockBoth(trx, auth, supplierId, productId, false)
    if (!(await repository.deleteTerms(trx, auth.schemaName, auth.businessId, supplierId, productId)))
      throw termsNotFound()
    return true
  })
}
