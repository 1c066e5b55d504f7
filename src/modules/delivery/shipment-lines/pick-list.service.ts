import type { Executor } from '../../../db/tables.js'
import { planNotFound } from './shipment-lines.errors.js'
import { pickRows } from './shipment-lines.repository.js'
import type { PickListResponse } from './shipment-lines.schemas.js'

const round4 = (value: number) => Math.round(value * 10_000) / 10_000

/**
 * A plan's pick list: every product to pick with its total and how many stops take it (by SKU),
 * and each stop's lines in stop order. One statement; the documents (a printed pick list) read it too.
 */
export async function pickList(
  db: Executor,
  auth: { schemaName: string; businessId: string },
  deliveryPlanId: string,
): Promise<PickListResponse> {
  const rows = await pickRows(db, auth.schemaName, auth.businessId, deliveryPlanId)
  const first = rows[0]
  if (!first) throw planNotFound()
  const byStop = new Map<string, PickListResponse['byStop'][number]>()
  const byProduct = new Map<string, PickListResponse['byProduct'][number] & { at: Set<string> }>()
  for (const row of rows) {
    if (row.shipment_id === null) continue
    let stop = byStop.get(row.shipment_id)
    if (!stop) {
      stop = {
        stopSequence: row.stop_sequence,
        shipmentId: row.shipment_id,
        code: row.shipment_code!,
        customerName: row.customer_name,
        lines: [],
      }
      byStop.set(row.shipment_id, stop)
    }
    if (row.product_id === null) continue
    const quantity = Number(row.quantity)
    stop.lines.push({
      lineNumber: row.line_number!,
      productId: row.product_id,
      sku: row.sku!,
      name: row.name!,
      quantity,
      package: row.package,
    })
    const product = byProduct.get(row.product_id) ?? {
      productId: row.product_id,
      sku: row.sku!,
      name: row.name!,
      unitOfMeasure: row.unit_of_measure!,
      quantity: 0,
      stops: 0,
      at: new Set<string>(),
    }
    product.quantity = round4(product.quantity + quantity)
    product.at.add(row.shipment_id)
    product.stops = product.at.size
    byProduct.set(row.product_id, product)
  }
  return {
    deliveryPlanId,
    code: first.plan_code,
    status: first.plan_status,
    byProduct: [...byProduct.values()]
      .sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0))
      .map(({ at: _, ...product }) => product),
    byStop: [...byStop.values()],
  }
}
