import { sql } from 'kysely'
import { SchemaStatement } from '../../../db/schema-statements.js'
import type { Executor } from '../../../db/tables.js'

/**
 * Active, unarchived products of the business at or below their reorder level, each with its preferred
 * supplier's terms (left joins: a product without one still appears) and the suggested quantity
 * computed in SQL from exact numerics. The page, its total and every column come from one statement.
 */
export function scopedSuggestions(db: Executor, schemaName: string, businessId: string) {
  const suggested = sql<string>`greatest(coalesce(sp.minimum_order_quantity, 0), 2 * p.reorder_level - p.on_hand)`
  return db
    .withSchema(schemaName)
    .selectFrom('products as p')
    .leftJoin('supplier_products as sp', (join) =>
      join
        .onRef('sp.product_id', '=', 'p.id')
        .onRef('sp.business_id', '=', 'p.business_id')
        .on('sp.is_preferred', '=', sql<boolean>`true`),
    )
    .leftJoin('suppliers as s', 's.id', 'sp.supplier_id')
    .where('p.business_id', '=', businessId)
    .where('p.active', '=', true)
    .where('p.archived_at', 'is', null)
    .where('p.reorder_level', 'is not', null)
    .where(sql<boolean>`p.on_hand <= p.reorder_level`)
    .select([
      'p.id as product_id',
      'p.sku',
      'p.name as product_name',
      'p.type',
      'p.unit_of_measure',
      'p.on_hand',
      'p.reorder_level',
      suggested.as('suggested_quantity'),
      's.id as supplier_id',
      's.code as supplier_code',
      's.name as supplier_name',
      's.currency',
      'sp.supplier_sku',
      'sp.unit_cost',
      'sp.minimum_order_quantity',
      sql<number | null>`coalesce(sp.lead_time_days, s.lead_time_days)`.as('lead_time_days'),
      sql<string | null>`round(${suggested} * sp.unit_cost, 4)`.as('estimated_cost'),
    ])
}

export type SuggestionRow = Awaited<
  ReturnType<ReturnType<typeof scopedSuggestions>['executeTakeFirstOrThrow']>
>

/** The first pages in the default order (by SKU) with the total, compiled once per schema and prepared. */
const defaultPage = new SchemaStatement(
  (db, schemaName, v: { businessId: string; limit: number; offset: number }) =>
    scopedSuggestions(db, schemaName, v.businessId)
      .select(sql<number>`count(*) over ()`.as('__total'))
      .orderBy('p.sku')
      .orderBy('p.id')
      .limit(v.limit)
      .offset(v.offset),
)

export const suggestionsInDefaultOrder = (
  db: Executor,
  schemaName: string,
  values: { businessId: string; limit: number; offset: number },
) => defaultPage.execute(db, schemaName, values)
