import { type RawBuilder, sql } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor } from '../../../db/tables.js'
import { averageCostAt } from '../stock/index.js'

export interface CostNodeRow {
  id: string
  parent_id: string | null
  depth: number
  line_number: number
  product_id: string
  sku: string
  name: string
  quantity: string
  scrap_percent: string
  sub_bom_id: string | null
  sub_code: string | null
  sub_revision: number | null
  sub_output: string | null
  ledger_cost: string | null
  standard_cost: string | null
  /** Line ids from the top: a line of a sub-assembly used twice appears twice, under different keys. */
  node_key: string
  parent_key: string
}

/** Deepest sub-assembly nesting followed; deeper levels (only possible through a cycle in history) are cut. */
export const MAX_DEPTH = 25

/**
 * The whole costing tree of a BOM as of `asOf`, in ONE recursive statement: its lines; for each
 * line whose product has a BOM active at that date (from the activation history, else its current
 * active one) that BOM's lines, and so on down; and for every line its product's moving-average
 * cost at that date (the last ledger entry at or before it) and standard cost. A product already
 * on the path is not expanded again, so history can never make it loop. (Exported for the bench.)
 */
export function costTreeQuery(schema: string, bomId: string, asOf: Date) {
  const t = (name: string) => sql.table(`${schema}.${name}`)
  const subBom = (product: RawBuilder<unknown>) => sql`
    LEFT JOIN LATERAL (
      SELECT x.id, x.code, x.revision, x.output_quantity FROM (
        SELECT sb.id, sb.code, sb.revision, sb.output_quantity, 0 AS preference
        FROM ${t('bom_activations')} a JOIN ${t('boms')} sb ON sb.id = a.bom_id
        WHERE a.product_id = ${product} AND a.active_from <= ${asOf} AND (a.active_to IS NULL OR a.active_to > ${asOf})
        UNION ALL
        SELECT sb.id, sb.code, sb.revision, sb.output_quantity, 1
        FROM ${t('boms')} sb WHERE sb.product_id = ${product} AND sb.status = 'Active'
      ) x ORDER BY x.preference LIMIT 1
    ) s ON true`
  return sql<CostNodeRow>`
    WITH RECURSIVE tree AS (
      SELECT l.id, NULL::uuid AS parent_id, 1 AS depth, l.line_number, l.product_id, l.quantity, l.scrap_percent,
        ARRAY[b.product_id, l.product_id] AS path, ARRAY[l.line_number] AS sort_key, ARRAY[l.id] AS line_path,
        s.id AS sub_bom_id, s.code AS sub_code, s.revision AS sub_revision, s.output_quantity AS sub_output
      FROM ${t('bom_lines')} l JOIN ${t('boms')} b ON b.id = l.bom_id
      ${subBom(sql.ref('l.product_id'))}
      WHERE l.bom_id = ${bomId}
      UNION ALL
      SELECT c.id, tr.id, tr.depth + 1, c.line_number, c.product_id, c.quantity, c.scrap_percent,
        tr.path || c.product_id, tr.sort_key || c.line_number, tr.line_path || c.id,
        s.id, s.code, s.revision, s.output_quantity
      FROM tree tr JOIN ${t('bom_lines')} c ON c.bom_id = tr.sub_bom_id
      ${subBom(sql.ref('c.product_id'))}
      WHERE NOT c.product_id = ANY(tr.path) AND tr.depth < ${MAX_DEPTH}
    )
    SELECT tr.id, tr.parent_id, tr.depth, tr.line_number, tr.product_id, p.sku, p.name, tr.quantity, tr.scrap_percent,
      tr.sub_bom_id, tr.sub_code, tr.sub_revision, tr.sub_output, lc.average_cost AS ledger_cost, p.unit_cost AS standard_cost,
      array_to_string(tr.line_path, '/') AS node_key,
      array_to_string(tr.line_path[1:tr.depth - 1], '/') AS parent_key
    FROM tree tr
    JOIN ${t('products')} p ON p.id = tr.product_id
    LEFT JOIN LATERAL (SELECT ${averageCostAt(schema, sql.ref('tr.product_id'), asOf)} AS average_cost) lc ON true
    ORDER BY tr.sort_key`
}

const costTreeStatement = new SchemaStatement((db, schema, v: { bomId: string; asOf: Date }) => ({
  compile: () => costTreeQuery(schema, v.bomId, v.asOf).compile(db),
}))

/** Compiled once per schema and run prepared: planning the recursive query costs more than running it. */
export async function costTree(
  db: Executor,
  schema: string,
  bomId: string,
  asOf: Date,
): Promise<CostNodeRow[]> {
  return costTreeStatement.execute(db, schema, { bomId, asOf })
}

/** The BOM's own row (scoped to the business), as costing needs it (exported for the bench). */
export const bomHeader = (db: Executor, schema: string, businessId: string, bomId: string) =>
  db
    .withSchema(schema)
    .selectFrom('boms')
    .select(['id', 'code', 'revision', 'product_id', 'output_quantity'])
    .where('id', '=', bomId)
    .where('business_id', '=', businessId)

/** Sent together with the tree query, so it is prepared as well. */
const bomHeaderStatement = new SchemaStatement((db, schema, v: { businessId: string; bomId: string }) =>
  bomHeader(db, schema, v.businessId, v.bomId),
)

export const findBomHeader = (db: Executor, schema: string, businessId: string, bomId: string) =>
  bomHeaderStatement.takeFirst(db, schema, { businessId, bomId })
