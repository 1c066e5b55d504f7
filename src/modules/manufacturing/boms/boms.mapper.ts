import { iso } from '../decimals.js'
import type { BomRow } from './boms.repository.js'
import type { BomResponse, BomStatus } from './boms.schemas.js'

export function toBom(row: BomRow): BomResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    productId: row.product_id,
    product: { id: row.product_id, sku: row.product_sku, name: row.product_name },
    code: row.code,
    name: row.name,
    revision: row.revision,
    status: row.status as BomStatus,
    outputQuantity: Number(row.output_quantity),
    notes: row.notes,
    revisedFromId: row.revised_from_id,
    activatedAt: iso(row.activated_at),
    archivedAt: iso(row.archived_at),
    lineItems: row.line_items.map((line) => ({
      ...line,
      quantity: Number(line.quantity),
      scrapPercent: Number(line.scrapPercent),
    })),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}
