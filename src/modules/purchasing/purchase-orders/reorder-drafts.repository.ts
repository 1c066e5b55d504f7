import { sql } from 'kysely'
import type { Executor } from '../../../db/tables.js'

export interface ReorderCandidate {
  product_id: string
  supplier_id: string
  unit_cost: string
  /** max(minimum order quantity, 2 × reorder level − on hand − on open purchase orders) */
  quantity: string
  /** today in the business's time zone plus the line's lead time, yyyy-mm-dd */
  expected_date: string
}

/**
 * Active products of the business at or below their reorder level (not archived, holding stock) with what to
 * order of each and from whom: their preferred supplier, or with `supplierId` that supplier
 * wherever it has terms for them; the supplier live and active. What is already outstanding on
 * open (Draft, Submitted, PartiallyReceived) purchase orders counts as stock to come; a product
 * with enough of it is left out. One statement, ordered by supplier then SKU.
 */
export async function reorderCandidates(
  db: Executor,
  schema: string,
  businessId: string,
  supplierId: string | null,
): Promise<ReorderCandidate[]> {
  const t = (name: string) => sql.table(`${schema}.${name}`)
  const { rows } = await sql<ReorderCandidate>`
    SELECT c.product_id, c.supplier_id, c.unit_cost,
      greatest(c.minimum_order_quantity, c.needed)::text AS quantity,
      to_char(c.today + c.lead_time_days, 'YYYY-MM-DD') AS expected_date
    FROM (
      SELECT p.id AS product_id, p.sku, sp.supplier_id, sp.unit_cost, sp.minimum_order_quantity,
        coalesce(sp.lead_time_days, s.lead_time_days) AS lead_time_days, s.name AS supplier_name,
        (now() AT TIME ZONE b.timezone)::date AS today,
        2 * p.reorder_level - p.on_hand - coalesce((
          SELECT sum(greatest(l.quantity - l.received_quantity, 0))
          FROM ${t('purchase_order_lines')} l JOIN ${t('purchase_orders')} po ON po.id = l.purchase_order_id
          WHERE l.product_id = p.id AND po.status IN ('Draft', 'Submitted', 'PartiallyReceived')), 0) AS needed
      FROM ${t('products')} p
      JOIN ${t('businesses')} b ON b.id = p.business_id
      JOIN ${t('supplier_products')} sp ON sp.product_id = p.id AND sp.business_id = p.business_id
      JOIN ${t('suppliers')} s ON s.id = sp.supplier_id AND s.deleted_at IS NULL AND s.is_active
      WHERE p.business_id = ${businessId} AND p.active AND p.archived_at IS NULL AND p.type <> 'Service'
        AND p.reorder_level IS NOT NULL AND p.on_hand <= p.reorder_level
        AND ${supplierId === null ? sql`sp.is_preferred` : sql`sp.supplier_id = ${supplierId}`}
    ) c
    WHERE c.needed > 0
    ORDER BY c.supplier_name, c.supplier_id, c.sku`.execute(db)
  return rows
}
