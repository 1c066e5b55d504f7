import { sql, type Transaction } from 'kysely'
import type { Executor, Tables } from '../../../db/tables.js'
import { factorSql, KG_PER_UNIT, METRES_PER_UNIT } from './load-units.js'

const table = (schema: string, name: string) => sql.table(`${schema}.${name}`)

/** A shipment of the business: its status and order; locked until commit when asked (lines change, or it dispatches). */
export function shipmentOf(
  db: Executor,
  schema: string,
  businessId: string,
  shipmentId: string,
  lock = false,
) {
  return db
    .withSchema(schema)
    .selectFrom('shipments')
    .select(['id', 'code', 'status', 'order_id', 'weight', 'volume', 'dimension_preset_id'])
    .where('id', '=', shipmentId)
    .where('business_id', '=', businessId)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst()
}

/** The lines of shipments with their products, by shipment (in the order given by the caller) and line number. */
export async function linesOf(db: Executor, schema: string, shipmentIds: readonly string[]) {
  if (shipmentIds.length === 0) return []
  return db
    .withSchema(schema)
    .selectFrom('shipment_lines as l')
    .innerJoin('products as p', 'p.id', 'l.product_id')
    .select([
      'l.id',
      'l.shipment_id',
      'l.line_number',
      'l.order_line_id',
      'l.product_id',
      'p.sku',
      'p.name',
      'p.weight as product_weight',
      'p.weight_unit',
      'p.dimension_unit',
      'p.length',
      'p.width',
      'p.height',
      'l.quantity',
      'l.package',
      'l.unit_cost',
      'l.ledger_entry_id',
      'l.returned_entry_id',
    ])
    .where('l.shipment_id', 'in', shipmentIds)
    .orderBy('l.shipment_id')
    .orderBy('l.line_number')
    .execute()
}
export type LineRow = Awaited<ReturnType<typeof linesOf>>[number]

/**
 * Sets the weight and volume of shipments that were not given them from what they carry: the weight
 * from their lines' products (kg), the volume from their package-size preset, else from their lines'
 * products (m³); null when nothing says (no lines, or a product without the figure). A weight or
 * volume the client gave (not `*_derived`) is kept. One statement for any number of shipments.
 */
export async function refreshDerivedLoad(db: Executor, schema: string, shipmentIds: readonly string[]) {
  if (shipmentIds.length === 0) return
  const kg = factorSql('p.weight_unit', KG_PER_UNIT)
  const metres = factorSql('p.dimension_unit', METRES_PER_UNIT)
  const presetMetres = factorSql('dp.dimension_unit', METRES_PER_UNIT)
  await sql`
    UPDATE ${table(schema, 'shipments')} s SET
      weight = CASE WHEN NOT s.weight_derived THEN s.weight ELSE (
        SELECT CASE WHEN count(*) = 0 OR bool_or(p.weight IS NULL) THEN NULL
                    ELSE round(sum(l.quantity * p.weight * ${kg}), 4) END
        FROM ${table(schema, 'shipment_lines')} l JOIN ${table(schema, 'products')} p ON p.id = l.product_id
        WHERE l.shipment_id = s.id) END,
      volume = CASE WHEN NOT s.volume_derived THEN s.volume ELSE coalesce(
        (SELECT round(dp.length * dp.width * dp.height * ${presetMetres} ^ 3, 4)
           FROM ${table(schema, 'dimension_presets')} dp WHERE dp.id = s.dimension_preset_id),
        (SELECT CASE WHEN count(*) = 0 OR bool_or(p.length IS NULL OR p.width IS NULL OR p.height IS NULL) THEN NULL
                     ELSE round(sum(l.quantity * p.length * p.width * p.height * ${metres} ^ 3), 4) END
           FROM ${table(schema, 'shipment_lines')} l JOIN ${table(schema, 'products')} p ON p.id = l.product_id
           WHERE l.shipment_id = s.id)) END
    WHERE s.id IN (${sql.join(shipmentIds)})
      AND (s.weight_derived OR s.volume_derived)`.execute(db)
}

/** Products of the business among `ids`, with what a line needs to know of them. */
export function productsOf(db: Executor, schema: string, businessId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .withSchema(schema)
    .selectFrom('products')
    .select(['id', 'type', 'archived_at'])
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute()
}

/** How much of each order line sits on other shipments not yet dispatched (Pending or Assigned). */
export async function plannedElsewhere(
  db: Executor,
  schema: string,
  shipmentId: string,
  orderLineIds: readonly string[],
) {
  if (orderLineIds.length === 0) return new Map<string, number>()
  const { rows } = await sql<{ order_line_id: string; quantity: string }>`
    SELECT l.order_line_id, sum(l.quantity) AS quantity
    FROM ${table(schema, 'shipment_lines')} l JOIN ${table(schema, 'shipments')} s ON s.id = l.shipment_id
    WHERE l.order_line_id = ANY(${sql.val(orderLineIds)}::uuid[]) AND l.shipment_id <> ${shipmentId}
      AND s.status IN ('Pending', 'Assigned')
    GROUP BY l.order_line_id`.execute(db)
  return new Map(rows.map((r) => [r.order_line_id, Number(r.quantity)]))
}

export interface NewLine {
  id: string
  business_id: string
  shipment_id: string
  line_number: number
  order_line_id: string | null
  product_id: string
  quantity: string
  package: string | null
}

export async function replaceLines(
  trx: Transaction<Tables>,
  schema: string,
  shipmentId: string,
  lines: readonly NewLine[],
) {
  const db = trx.withSchema(schema)
  await db.deleteFrom('shipment_lines').where('shipment_id', '=', shipmentId).execute()
  if (lines.length > 0) await db.insertInto('shipment_lines').values(lines).execute()
}

export async function setPackage(
  trx: Transaction<Tables>,
  schema: string,
  shipmentId: string,
  lineId: string,
  pkg: string | null,
) {
  const result = await trx
    .withSchema(schema)
    .updateTable('shipment_lines')
    .set({ package: pkg, date_modified: sql<Date>`now()` })
    .where('id', '=', lineId)
    .where('shipment_id', '=', shipmentId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Keeps, per line, the ledger entry that issued it and the exact cost it left with: one statement. */
export async function setIssued(
  trx: Transaction<Tables>,
  schema: string,
  issued: readonly { id: string; entryId: string; unitCost: string }[],
) {
  if (issued.length === 0) return
  await sql`
    UPDATE ${table(schema, 'shipment_lines')} l
    SET ledger_entry_id = i.entry_id, unit_cost = i.unit_cost, date_modified = now()
    FROM unnest(${sql.val(issued.map((i) => i.id))}::uuid[], ${sql.val(issued.map((i) => i.entryId))}::uuid[],
                ${sql.val(issued.map((i) => i.unitCost))}::numeric[]) AS i(id, entry_id, unit_cost)
    WHERE l.id = i.id`.execute(trx)
}

export async function setReturned(
  trx: Transaction<Tables>,
  schema: string,
  returned: readonly { id: string; entryId: string }[],
) {
  if (returned.length === 0) return
  await sql`
    UPDATE ${table(schema, 'shipment_lines')} l
    SET returned_entry_id = r.entry_id, date_modified = now()
    FROM unnest(${sql.val(returned.map((r) => r.id))}::uuid[], ${sql.val(returned.map((r) => r.entryId))}::uuid[])
      AS r(id, entry_id)
    WHERE l.id = r.id`.execute(trx)
}

/** A plan of the business and every line on its shipments, in stop order, in one statement. */
export async function pickRows(db: Executor, schema: string, businessId: string, planId: string) {
  const { rows } = await sql<{
    plan_code: string
    plan_status: string
    shipment_id: string | null
    shipment_code: string | null
    stop_sequence: number | null
    customer_name: string | null
    line_number: number | null
    product_id: string | null
    sku: string | null
    name: string | null
    unit_of_measure: string | null
    quantity: string | null
    package: string | null
  }>`
    SELECT p.code AS plan_code, p.status AS plan_status, s.id AS shipment_id, s.code AS shipment_code,
      s.stop_sequence, c.name AS customer_name, l.line_number, l.product_id, pr.sku, pr.name,
      pr.unit_of_measure, l.quantity, l.package
    FROM ${table(schema, 'delivery_plans')} p
    LEFT JOIN ${table(schema, 'shipments')} s ON s.delivery_plan_id = p.id
    LEFT JOIN ${table(schema, 'customers')} c ON c.id = s.customer_id
    LEFT JOIN ${table(schema, 'shipment_lines')} l ON l.shipment_id = s.id
    LEFT JOIN ${table(schema, 'products')} pr ON pr.id = l.product_id
    WHERE p.id = ${planId} AND p.business_id = ${businessId}
    ORDER BY s.stop_sequence NULLS LAST, s.code, l.line_number`.execute(db)
  return rows
}

/** The dispatched lines of a plan's shipments, in stop order then line number. */
export async function linesToIssue(trx: Transaction<Tables>, schema: string, shipmentIds: readonly string[]) {
  if (shipmentIds.length === 0) return []
  const { rows } = await sql<{
    id: string
    shipment_id: string
    code: string
    order_id: string | null
    line_number: number
    order_line_id: string | null
    product_id: string
    quantity: string
  }>`
    SELECT l.id, l.shipment_id, s.code, s.order_id, l.line_number, l.order_line_id, l.product_id, l.quantity
    FROM ${table(schema, 'shipment_lines')} l JOIN ${table(schema, 'shipments')} s ON s.id = l.shipment_id
    WHERE l.shipment_id = ANY(${sql.val(shipmentIds)}::uuid[])
    ORDER BY s.stop_sequence NULLS LAST, s.code, l.line_number`.execute(trx)
  return rows
}

/** The issued lines of a shipment not yet put back, with the cost each left with. */
export async function linesToReturn(trx: Transaction<Tables>, schema: string, shipmentId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('shipment_lines')
    .select(['id', 'product_id', 'quantity', 'unit_cost', 'line_number'])
    .where('shipment_id', '=', shipmentId)
    .where('ledger_entry_id', 'is not', null)
    .where('returned_entry_id', 'is', null)
    .orderBy('line_number')
    .execute()
}
