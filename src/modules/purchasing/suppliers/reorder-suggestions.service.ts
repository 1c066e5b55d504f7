import type { Executor } from '../../../db/tables.js'
import { paged } from '../../../http/envelopes.js'
import { type ListQuery, pageOffset, pageRequest } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import {
  type SuggestionRow,
  scopedSuggestions,
  suggestionsInDefaultOrder,
} from './reorder-suggestions.repository.js'
import type { ReorderSuggestion } from './reorder-suggestions.schemas.js'
import { isDefaultListQuery } from './suppliers.service.js'

const LIST: ListSpec = {
  fields: {
    productId: { column: 'p.id', type: 'uuid' },
    productSku: { column: 'p.sku', type: 'string' },
    productName: { column: 'p.name', type: 'string' },
    productType: { column: 'p.type', type: 'string' },
    onHand: { column: 'p.on_hand', type: 'number' },
    reorderLevel: { column: 'p.reorder_level', type: 'number' },
    supplierId: { column: 's.id', type: 'uuid' },
    leadTimeDays: { column: 's.lead_time_days', type: 'number' },
  },
  search: ['p.sku', 'p.name', 's.name'],
  defaultOrder: [{ column: 'p.sku', direction: 'asc' }],
  tiebreak: 'p.id',
}

const num = (value: string | null) => (value === null ? null : Number(value))

export function toSuggestion(row: SuggestionRow): ReorderSuggestion {
  return {
    productId: row.product_id,
    productSku: row.sku,
    productName: row.product_name,
    productType: row.type,
    unitOfMeasure: row.unit_of_measure,
    onHand: Number(row.on_hand),
    reorderLevel: Number(row.reorder_level),
    suggestedQuantity: Number(row.suggested_quantity),
    preferredSupplier:
      row.supplier_id && row.supplier_code && row.supplier_name && row.currency
        ? { id: row.supplier_id, code: row.supplier_code, name: row.supplier_name, currency: row.currency }
        : null,
    supplierSku: row.supplier_sku,
    unitCost: num(row.unit_cost),
    minimumOrderQuantity: num(row.minimum_order_quantity),
    leadTimeDays: row.lead_time_days,
    estimatedCost: num(row.estimated_cost),
  }
}

/** Products at or below their reorder level with what to order from whom: one statement per page. */
export async function listReorderSuggestions(db: Executor, auth: BusinessAuth, query: ListQuery) {
  if (isDefaultListQuery(query)) {
    const page = pageRequest(query)
    const rows = await suggestionsInDefaultOrder(db, auth.schemaName, {
      businessId: auth.businessId,
      limit: page.pageSize,
      offset: pageOffset(page),
    })
    if (rows.length > 0 || page.page === 1)
      return paged('core', rows.map(toSuggestion), Number(rows[0]?.__total ?? 0), page)
  }
  const { rows, total, page } = await runList(
    scopedSuggestions(db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  return paged('core', rows.map(toSuggestion), total, page)
}
