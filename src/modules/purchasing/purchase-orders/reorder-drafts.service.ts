import { lockUntilCommit } from '../../../db/advisory-lock.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { findPurchasingSupplier } from '../index.js'
import { supplierNotAvailable } from './purchase-orders.errors.js'
import * as repository from './purchase-orders.repository.js'
import type { ReorderDraftsRequest, ReorderDraftsResponse } from './purchase-orders.schemas.js'
import { loadPurchaseOrder } from './purchase-orders.service.js'
import { type ReorderCandidate, reorderCandidates } from './reorder-drafts.repository.js'

/**
 * One Draft purchase order per supplier from the reorder suggestions (see reorderCandidates for
 * the quantities), all in one transaction: the orders, or none. Two calls at once for one business
 * run in turn, so the second does not draft again what the first just drafted.
 */
export async function draftsFromReorderSuggestions(
  database: Database,
  auth: BusinessAuth,
  request: ReorderDraftsRequest,
): Promise<ReorderDraftsResponse> {
  const { schemaName: schema, businessId } = auth
  const only = request.supplierId ?? null
  return database.db.transaction().execute(async (trx) => {
    // One drafting at a time per business: a second call then counts the first's drafts as on order.
    await lockUntilCommit(trx, `purchase-order-drafts:${businessId}`)
    if (only !== null) {
      const supplier = await findPurchasingSupplier(trx, schema, businessId, only, 'share')
      if (!supplier?.isActive) throw supplierNotAvailable()
    }
    const bySupplier = new Map<string, ReorderCandidate[]>()
    for (const candidate of await reorderCandidates(trx, schema, businessId, only)) {
      const list = bySupplier.get(candidate.supplier_id) ?? []
      list.push(candidate)
      bySupplier.set(candidate.supplier_id, list)
    }
    const created = []
    for (const [supplierId, lines] of bySupplier) {
      const supplier = await findPurchasingSupplier(trx, schema, businessId, supplierId, 'share')
      if (!supplier) continue
      const id = newId()
      await repository.insertPurchaseOrder(trx, schema, {
        id,
        business_id: businessId,
        number: await nextCode(trx, schema, businessId, 'purchase_order', 'PO'),
        supplier_id: supplierId,
        currency: supplier.currency,
        // ISO days sort as text: the latest is the last.
        expected_date:
          lines
            .map((l) => l.expected_date)
            .sort()
            .at(-1) ?? null,
        notes: 'Drafted from the reorder suggestions',
      })
      await repository.replaceLines(
        trx,
        schema,
        businessId,
        id,
        lines.map((l) => ({
          id: newId(),
          product_id: l.product_id,
          quantity: Number(l.quantity),
          unit_cost: l.unit_cost,
        })),
      )
      created.push(await loadPurchaseOrder(trx, auth, id))
    }
    return { purchaseOrders: created }
  })
}
