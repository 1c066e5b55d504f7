import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { type Reason, validationFailed } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { shippableLines } from '../../sales/index.js'
import { cubicMetresOf, kgOf } from './load-units.js'
import { lineNotFound, linesLocked, shipmentNotFound } from './shipment-lines.errors.js'
import * as repository from './shipment-lines.repository.js'
import type { ReplaceShipmentLinesRequest, ShipmentLinesResponse } from './shipment-lines.schemas.js'

const OPEN = ['Pending', 'Assigned']
const round4 = (value: number) => Math.round(value * 10_000) / 10_000
const fourDecimals = (value: number) => Number(value.toFixed(4)) === value

/** Sum of quantity × a per-unit figure; null as soon as one product lacks it. */
function total(lines: readonly repository.LineRow[], perUnit: (l: repository.LineRow) => number | null) {
  let sum = 0
  for (const line of lines) {
    const unit = perUnit(line)
    if (unit === null) return null
    sum += unit * Number(line.quantity)
  }
  return round4(sum)
}

const num = (value: string | null) => (value === null ? null : Number(value))

export function toLines(
  shipment: { id: string; status: string },
  lines: readonly repository.LineRow[],
): ShipmentLinesResponse {
  return {
    shipmentId: shipment.id,
    status: shipment.status,
    lines: lines.map((l) => ({
      id: l.id,
      lineNumber: l.line_number,
      orderLineId: l.order_line_id,
      productId: l.product_id,
      sku: l.sku,
      name: l.name,
      quantity: Number(l.quantity),
      package: l.package,
      unitCost: num(l.unit_cost),
      returned: l.returned_entry_id !== null,
    })),
    linesWeight: total(lines, (l) =>
      l.product_weight === null ? null : kgOf(Number(l.product_weight), l.weight_unit),
    ),
    linesVolume: total(lines, (l) =>
      l.length === null || l.width === null || l.height === null
        ? null
        : cubicMetresOf(Number(l.length), Number(l.width), Number(l.height), l.dimension_unit),
    ),
  }
}

export async function getShipmentLines(database: Database, auth: BusinessAuth, shipmentId: string) {
  const shipment = await repository.shipmentOf(database.db, auth.schemaName, auth.businessId, shipmentId)
  if (!shipment) throw shipmentNotFound()
  return toLines(shipment, await repository.linesOf(database.db, auth.schemaName, [shipmentId]))
}

/**
 * Replaces what a Pending or Assigned shipment carries, with the shipment locked (so a dispatch
 * waits or has already moved it). A line from an order line ships that line's product, at most what
 * is left of it (ordered, less shipped and less what other open shipments carry of it).
 */
export async function replaceShipmentLines(
  database: Database,
  auth: BusinessAuth,
  shipmentId: string,
  request: ReplaceShipmentLinesRequest,
): Promise<ShipmentLinesResponse> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const shipment = await repository.shipmentOf(trx, schema, businessId, shipmentId, true)
    if (!shipment) throw shipmentNotFound()
    if (!OPEN.includes(shipment.status)) throw linesLocked(shipment.status)
    const orderLineIds = request.lines.flatMap((l) => (l.orderLineId ? [l.orderLineId] : []))
    const [orderLines, elsewhere] = await Promise.all([
      shippableLines(trx, schema, businessId, orderLineIds),
      repository.plannedElsewhere(trx, schema, shipmentId, orderLineIds),
    ])
    const byId = new Map(orderLines.map((l) => [l.id, l]))
    const reasons: Reason[] = []
    const taken = new Map<string, number>()
    const lines = request.lines.map((line, index) => {
      const at = `lines.${index}`
      if (!fourDecimals(line.quantity))
        reasons.push({ field: `${at}.quantity`, message: 'must have at most 4 decimal places' })
      let productId = line.productId ?? null
      if (line.orderLineId) {
        const source = byId.get(line.orderLineId)
        if (!source || (shipment.order_id !== null && source.order_id !== shipment.order_id)) {
          reasons.push({
            field: `${at}.orderLineId`,
            message: "must be a line of this business's order (the shipment's order, when it has one)",
          })
        } else if (!['Confirmed', 'PartiallyFulfilled'].includes(source.order_status)) {
          reasons.push({
            field: `${at}.orderLineId`,
            message: `its order is ${source.order_status}; only Confirmed and PartiallyFulfilled orders ship`,
          })
        } else if (source.product_id === null || (productId !== null && productId !== source.product_id)) {
          reasons.push({
            field: `${at}.productId`,
            message: "must be the order line's product (a line without one does not ship)",
          })
        } else {
          productId = source.product_id
          const left = round4(
            Number(source.quantity) -
              Number(source.shipped ?? 0) -
              (elsewhere.get(source.id) ?? 0) -
              (taken.get(source.id) ?? 0),
          )
          taken.set(source.id, round4((taken.get(source.id) ?? 0) + line.quantity))
          if (line.quantity > left)
            reasons.push({
              field: `${at}.quantity`,
              message: `at most ${Math.max(left, 0)} of this order line is left to ship`,
            })
        }
      } else if (productId === null) {
        reasons.push({ field: at, message: 'needs an orderLineId or a productId' })
      }
      return { line, productId, index }
    })
    const products = new Map(
      (
        await repository.productsOf(trx, schema, businessId, [
          ...new Set(lines.flatMap((l) => (l.productId ? [l.productId] : []))),
        ])
      ).map((p) => [p.id, p]),
    )
    for (const { productId, index } of lines) {
      if (productId === null) continue
      const product = products.get(productId)
      if (!product || product.type === 'Service' || product.archived_at !== null)
        reasons.push({
          field: `lines.${index}.productId`,
          message: 'must be a stocked, unarchived product of this business',
        })
    }
    if (reasons.length > 0) throw validationFailed(reasons)
    await repository.replaceLines(
      trx,
      schema,
      shipmentId,
      lines.map(({ line, productId, index }) => ({
        id: newId(),
        business_id: businessId,
        shipment_id: shipmentId,
        line_number: index + 1,
        order_line_id: line.orderLineId ?? null,
        product_id: productId!,
        quantity: String(line.quantity),
        package: line.package?.trim() || null,
      })),
    )
    await repository.refreshDerivedLoad(trx, schema, [shipmentId])
    return toLines(shipment, await repository.linesOf(trx, schema, [shipmentId]))
  })
}

/** Packing: the package a line went into, while the shipment is Pending or Assigned. */
export async function packLine(
  database: Database,
  auth: BusinessAuth,
  shipmentId: string,
  lineId: string,
  pkg: string | null,
): Promise<ShipmentLinesResponse> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const shipment = await repository.shipmentOf(trx, schema, businessId, shipmentId, true)
    if (!shipment) throw shipmentNotFound()
    if (!OPEN.includes(shipment.status)) throw linesLocked(shipment.status)
    if (!(await repository.setPackage(trx, schema, shipmentId, lineId, pkg?.trim() || null)))
      throw lineNotFound()
    return toLines(shipment, await repository.linesOf(trx, schema, [shipmentId]))
  })
}
