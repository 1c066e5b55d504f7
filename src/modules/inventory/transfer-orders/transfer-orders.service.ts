import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor } from '../../../db/tables.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { businessInOrganization } from '../../organisation/index.js'
import {
  destinationBusinessNotFound,
  transferOrderNotEditable,
  transferOrderNotFound,
  wrongSide,
} from './transfer-orders.errors.js'
import { toInTransitLine, toTransferOrder } from './transfer-orders.mapper.js'
import * as repository from './transfer-orders.repository.js'
import { quantityReasons } from './transfer-orders.rules.js'
import {
  type InTransitQuery,
  TRANSFER_ORDER_STATUSES,
  type TransferOrderRequest,
  type TransferOrdersQuery,
} from './transfer-orders.schemas.js'

const LIST: ListSpec = {
  fields: {
    number: { column: 't.number', type: 'string' },
    status: { column: 't.status', type: 'enum', enumValues: TRANSFER_ORDER_STATUSES },
    sourceBusinessId: { column: 't.source_business_id', type: 'uuid' },
    destinationBusinessId: { column: 't.destination_business_id', type: 'uuid' },
    shippedAt: { column: 't.shipped_at', type: 'datetime' },
    receivedAt: { column: 't.received_at', type: 'datetime' },
    dateCreated: { column: 't.date_created', type: 'datetime' },
    dateModified: { column: 't.date_modified', type: 'datetime' },
  },
  search: ['t.number', 't.notes'],
  defaultOrder: [{ column: 't.date_created', direction: 'desc' }],
  tiebreak: 't.id',
}

const IN_TRANSIT: ListSpec = {
  fields: {
    number: { column: 't.number', type: 'string' },
    sku: { column: 'p.sku', type: 'string' },
    productId: { column: 'l.source_product_id', type: 'uuid' },
    destinationProductId: { column: 'l.destination_product_id', type: 'uuid' },
    sourceBusinessId: { column: 't.source_business_id', type: 'uuid' },
    destinationBusinessId: { column: 't.destination_business_id', type: 'uuid' },
    shippedAt: { column: 't.shipped_at', type: 'datetime' },
  },
  search: ['t.number', 'p.sku', 'p.name'],
  defaultOrder: [
    { column: 't.shipped_at', direction: 'asc' },
    { column: 'l.line_number', direction: 'asc' },
  ],
  tiebreak: 'l.id',
}

/** The transfers the business sends and receives (direction narrows to one side). */
export async function listTransferOrders(database: Database, auth: BusinessAuth, query: TransferOrdersQuery) {
  const scoped = repository.scopedTransferOrders(
    database.db,
    auth.schemaName,
    auth.businessId,
    query.direction,
  )
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toTransferOrder), total, page)
}

/** Every line shipped from or to the business and not yet received, at the cost it left with. */
export async function listInTransit(database: Database, auth: BusinessAuth, query: InTransitQuery) {
  const scoped = repository.scopedInTransit(database.db, auth.schemaName, auth.businessId, query.direction)
  const { rows, total, page } = await runList(scoped, query, IN_TRANSIT)
  return paged('core', rows.map(toInTransitLine), total, page)
}

export async function loadTransferOrder(db: Executor, auth: BusinessAuth, id: string) {
  const row = await repository.findTransferOrder(db, auth.schemaName, auth.businessId, id)
  if (!row) throw transferOrderNotFound()
  return toTransferOrder(row)
}

export const getTransferOrder = (database: Database, auth: BusinessAuth, id: string) =>
  loadTransferOrder(database.db, auth, id)

interface Usable {
  id: string
  sku: string
  type: string
  archived_at: Date | null
}

/** Why a product cannot be on a transfer line, or null. */
const unusable = (product: Usable) =>
  product.type === 'Service'
    ? 'is a Service, which holds no stock'
    : product.archived_at
      ? 'is archived'
      : null

/**
 * The lines as stored: each source product a stocked product of the source business, each
 * destination product the one given or the destination's product with the same SKU. Every
 * problem is one reason naming its line.
 */
async function resolveLines(
  db: Executor,
  auth: BusinessAuth,
  request: TransferOrderRequest,
  orderId: string,
) {
  const reasons: Reason[] = quantityReasons(request.lines)
  const destination = request.destinationBusinessId.toLowerCase()
  if (destination === auth.businessId)
    reasons.push({ field: 'destinationBusinessId', message: 'must be another business than the source' })
  if (reasons.length > 0) throw validationFailed(reasons)
  if (!(await businessInOrganization(db, destination, auth.organizationId)))
    throw destinationBusinessNotFound()
  const { schemaName: schema } = auth
  const sources = new Map(
    (
      await repository.productsOf(
        db,
        schema,
        auth.businessId,
        request.lines.map((l) => l.productId),
      )
    ).map((p) => [p.id, p]),
  )
  const explicit = request.lines.flatMap((l) => (l.destinationProductId ? [l.destinationProductId] : []))
  const givenIds = new Map(
    (await repository.productsOf(db, schema, destination, explicit)).map((p) => [p.id, p]),
  )
  const wantedSkus = request.lines.flatMap((l) =>
    l.destinationProductId ? [] : [sources.get(l.productId.toLowerCase())?.sku ?? ''].filter(Boolean),
  )
  const bySku = new Map(
    (await repository.productsBySku(db, schema, destination, wantedSkus)).map((p) => [
      p.sku.toLowerCase(),
      p,
    ]),
  )
  const rows = request.lines.map((line, index) => {
    const source = sources.get(line.productId.toLowerCase())
    const field = `lines.${index}`
    if (!source) {
      reasons.push({
        field: `${field}.productId`,
        message: 'must be a product of this (the source) business',
      })
      return null
    }
    const why = unusable(source)
    if (why) reasons.push({ field: `${field}.productId`, message: why })
    const target = line.destinationProductId
      ? givenIds.get(line.destinationProductId.toLowerCase())
      : bySku.get(source.sku.toLowerCase())
    if (!target) {
      reasons.push({
        field: `${field}.destinationProductId`,
        message: line.destinationProductId
          ? 'must be a product of the destination business'
          : `no product of the destination business has SKU ${source.sku}; give destinationProductId`,
      })
      return null
    }
    const targetWhy = unusable(target)
    if (targetWhy) reasons.push({ field: `${field}.destinationProductId`, message: targetWhy })
    return {
      id: newId(),
      transfer_order_id: orderId,
      line_number: index + 1,
      source_product_id: source.id,
      destination_product_id: target.id,
      quantity: line.quantity,
    }
  })
  if (reasons.length > 0) throw validationFailed(reasons)
  return { destination, lines: rows.filter((r) => r !== null) }
}

export async function createTransferOrder(
  database: Database,
  auth: BusinessAuth,
  request: TransferOrderRequest,
) {
  return database.db.transaction().execute(async (trx) => {
    const id = newId()
    const { destination, lines } = await resolveLines(trx, auth, request, id)
    await repository.insertTransferOrder(trx, auth.schemaName, {
      id,
      number: await nextCode(trx, auth.schemaName, auth.businessId, 'transfer_order', 'TO'),
      source_business_id: auth.businessId,
      destination_business_id: destination,
      notes: request.notes?.trim() || null,
      created_by_user_id: auth.userId,
    })
    await repository.replaceLines(trx, auth.schemaName, id, lines)
    return loadTransferOrder(trx, auth, id)
  })
}

/** Replaces a Draft transfer order (its destination, notes and lines); only its source may. */
export async function updateTransferOrder(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: TransferOrderRequest,
) {
  return database.db.transaction().execute(async (trx) => {
    const current = await repository.lockTransferOrder(trx, auth.schemaName, auth.businessId, id)
    if (!current) throw transferOrderNotFound()
    if (current.source_business_id !== auth.businessId) throw wrongSide('change', 'source')
    if (current.status !== 'Draft') throw transferOrderNotEditable(current.status)
    const { destination, lines } = await resolveLines(trx, auth, request, id)
    await repository.updateDraft(trx, auth.schemaName, id, {
      destination_business_id: destination,
      notes: request.notes?.trim() || null,
    })
    await repository.replaceLines(trx, auth.schemaName, id, lines)
    return loadTransferOrder(trx, auth, id)
  })
}
