import { iso, num } from '../decimals.js'
import type { ProductRow } from './products.repository.js'
import type { DimensionUnit, ProductResponse, ProductType, WeightUnit } from './products.schemas.js'

export function toProduct(row: ProductRow): ProductResponse {
  const dimensions =
    row.length !== null && row.width !== null && row.height !== null && row.dimension_unit !== null
      ? {
          length: Number(row.length),
          width: Number(row.width),
          height: Number(row.height),
          unit: row.dimension_unit as DimensionUnit,
        }
      : null
  return {
    id: row.id,
    businessId: row.business_id,
    sku: row.sku,
    name: row.name,
    description: row.description,
    type: row.type as ProductType,
    unitOfMeasure: row.unit_of_measure,
    barcode: row.barcode,
    unitCost: num(row.unit_cost),
    unitPrice: num(row.unit_price),
    weight: num(row.weight),
    weightUnit: row.weight_unit as WeightUnit | null,
    dimensions,
    reorderLevel: num(row.reorder_level),
    active: row.active,
    onHand: Number(row.on_hand),
    averageCost: Number(row.average_cost),
    archivedAt: iso(row.archived_at),
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}
