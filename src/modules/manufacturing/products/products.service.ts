import type { Database } from '../../../db/database.js'
import { isUniqueViolation, newId } from '../../../db/ids.js'
import { validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { decimalReasons } from '../decimals.js'
import { productNotFound, productTypeLocked, skuTaken } from './products.errors.js'
import { toProduct } from './products.mapper.js'
import * as repository from './products.repository.js'
import { PRODUCT_TYPES, type ProductRequest, type ProductResponse } from './products.schemas.js'

const LIST: ListSpec = {
  fields: {
    sku: { column: 'p.sku', type: 'string' },
    name: { column: 'p.name', type: 'string' },
    type: { column: 'p.type', type: 'enum', enumValues: PRODUCT_TYPES },
    active: { column: 'p.active', type: 'boolean' },
    barcode: { column: 'p.barcode', type: 'string' },
    onHand: { column: 'p.on_hand', type: 'number' },
    reorderLevel: { column: 'p.reorder_level', type: 'number' },
    unitPrice: { column: 'p.unit_price', type: 'number' },
    dateCreated: { column: 'p.date_created', type: 'datetime' },
    dateModified: { column: 'p.date_modified', type: 'datetime' },
  },
  search: ['p.sku', 'p.name', 'p.barcode'],
  defaultOrder: [{ column: 'p.date_created', direction: 'desc' }],
  tiebreak: 'p.id',
}

export async function listProducts(database: Database, auth: BusinessAuth, query: ListQuery) {
  const { rows, total, page } = await runList(
    repository.scopedProducts(database.db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  return paged('core', rows.map(toProduct), total, page)
}

export async function getProduct(database: Database, auth: BusinessAuth, productId: string) {
  const row = await repository.findProduct(database.db, auth.schemaName, auth.businessId, productId)
  if (!row) throw productNotFound()
  return toProduct(row)
}

/** Checks what the schema cannot and returns the columns to store. */
function productValues(request: ProductRequest): repository.ProductValues {
  const dims = request.dimensions ?? null
  const reasons = [
    ...decimalReasons({
      unitCost: request.unitCost,
      unitPrice: request.unitPrice,
      weight: request.weight,
      reorderLevel: request.reorderLevel,
    }),
    ...decimalReasons({ length: dims?.length, width: dims?.width, height: dims?.height }, 4, 'dimensions.'),
  ]
  const sku = request.sku.trim()
  const name = request.name.trim()
  if (!sku) reasons.push({ field: 'sku', message: 'must not be blank' })
  if (!name) reasons.push({ field: 'name', message: 'must not be blank' })
  if (request.weight != null && !request.weightUnit)
    reasons.push({ field: 'weightUnit', message: 'is required with a weight' })
  if (reasons.length > 0) throw validationFailed(reasons)
  const active = request.active ?? true
  return {
    sku,
    name,
    description: request.description?.trim() || null,
    type: request.type,
    unit_of_measure: request.unitOfMeasure?.trim() || 'Each',
    barcode: request.barcode?.trim() || null,
    unit_cost: request.unitCost ?? null,
    unit_price: request.unitPrice ?? null,
    weight: request.weight ?? null,
    weight_unit: request.weightUnit ?? null,
    length: dims?.length ?? null,
    width: dims?.width ?? null,
    height: dims?.height ?? null,
    dimension_unit: dims?.unit ?? null,
    reorder_level: request.reorderLevel ?? null,
    active,
    archived_at: null,
  }
}

export async function createProduct(
  database: Database,
  auth: BusinessAuth,
  request: ProductRequest,
): Promise<ProductResponse> {
  const values = productValues(request)
  const id = newId()
  try {
    await repository.insertProduct(database.db, auth.schemaName, {
      ...values,
      id,
      business_id: auth.businessId,
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw skuTaken()
    throw error
  }
  return getProduct(database, auth, id)
}

/** Replaces the product. A product with stock history cannot become (or stop being) a Service: 409. */
export async function updateProduct(
  database: Database,
  auth: BusinessAuth,
  productId: string,
  request: ProductRequest,
): Promise<ProductResponse> {
  const values = productValues(request)
  await database.db.transaction().execute(async (trx) => {
    const current = await repository.lockProduct(trx, auth.schemaName, auth.businessId, productId)
    if (!current) throw productNotFound()
    const serviceChange = (current.type === 'Service') !== (values.type === 'Service')
    if (serviceChange && (await repository.hasLedger(trx, auth.schemaName, productId)))
      throw productTypeLocked()
    // Reactivating clears the archive stamp; deactivating keeps the original stamp if there is one.
    const archivedAt = values.active ? null : (current.archived_at ?? null)
    try {
      await repository.updateProduct(trx, auth.schemaName, productId, { ...values, archived_at: archivedAt })
    } catch (error) {
      if (isUniqueViolation(error)) throw skuTaken()
      throw error
    }
  })
  return getProduct(database, auth, productId)
}

/** DELETE archives: the product stays readable with its ledger, BOMs and work orders. */
export async function archiveProduct(database: Database, auth: BusinessAuth, productId: string) {
  const row = await repository.findProduct(database.db, auth.schemaName, auth.businessId, productId)
  if (!row) throw productNotFound()
  if (row.archived_at === null)
    await repository.updateProduct(database.db, auth.schemaName, productId, {
      active: false,
      archived_at: new Date(),
    })
  return true
}
