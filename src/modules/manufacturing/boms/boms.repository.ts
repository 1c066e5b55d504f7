import { type Insertable, sql, type Transaction } from 'kysely'
import { lockUntilCommit } from '../../../db/advisory-lock.js'
import { newId } from '../../../db/ids.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { BomLineResponse } from './boms.schemas.js'
import type { BomsTable } from './boms.tables.js'

/** BOMs of one business, each with its product and its lines (json_agg): one statement per read. */
export function scopedBoms(db: Executor, schema: string, businessId: string) {
  const lines = sql<BomLineResponse[]>`coalesce((
    SELECT json_agg(json_build_object('id', l.id, 'lineNumber', l.line_number, 'productId', l.product_id,
      'sku', lp.sku, 'name', lp.name, 'quantity', l.quantity, 'scrapPercent', l.scrap_percent, 'notes', l.notes)
      ORDER BY l.line_number)
    FROM ${sql.table(`${schema}.bom_lines`)} l JOIN ${sql.table(`${schema}.products`)} lp ON lp.id = l.product_id
    WHERE l.bom_id = b.id), '[]'::json)`
  return db
    .withSchema(schema)
    .selectFrom('boms as b')
    .innerJoin('products as p', 'p.id', 'b.product_id')
    .where('b.business_id', '=', businessId)
    .select([
      'b.id',
      'b.business_id',
      'b.product_id',
      'p.sku as product_sku',
      'p.name as product_name',
      'b.code',
      'b.name',
      'b.revision',
      'b.status',
      'b.output_quantity',
      'b.notes',
      'b.revised_from_id',
      'b.activated_at',
      'b.archived_at',
      'b.date_created',
      'b.date_modified',
      lines.as('line_items'),
    ])
}

export type BomRow = NonNullable<Awaited<ReturnType<typeof findBom>>>

export async function findBom(db: Executor, schema: string, businessId: string, bomId: string) {
  return scopedBoms(db, schema, businessId).where('b.id', '=', bomId).executeTakeFirst()
}

export async function lockBom(trx: Transaction<Tables>, schema: string, businessId: string, bomId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('boms')
    .selectAll()
    .where('id', '=', bomId)
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst()
}

/** Serialises BOM activations of one business until commit (they are rare; a cycle check needs it). */
export async function lockActivations(trx: Transaction<Tables>, businessId: string) {
  await lockUntilCommit(trx, `bom_activations:${businessId}`)
}

/** A new BOM (a first revision, or a copy made by revising). */
export async function insertBom(trx: Transaction<Tables>, schema: string, values: Insertable<BomsTable>) {
  await trx.withSchema(schema).insertInto('boms').values(values).execute()
}

/** The fields of a Draft that PUT changes; output_quantity only when sent. */
export interface BomFields {
  name: string
  notes: string | null
  output_quantity?: number
}

export async function updateBomFields(
  trx: Transaction<Tables>,
  schema: string,
  bomId: string,
  fields: BomFields,
) {
  await trx.withSchema(schema).updateTable('boms').set(fields).where('id', '=', bomId).execute()
}

export interface LineValues {
  product_id: string
  quantity: number
  scrap_percent: number
  notes: string | null
}

export async function insertLines(
  trx: Transaction<Tables>,
  schema: string,
  bomId: string,
  lines: readonly LineValues[],
  from = 1,
) {
  if (lines.length === 0) return
  await trx
    .withSchema(schema)
    .insertInto('bom_lines')
    .values(lines.map((line, i) => ({ ...line, id: newId(), bom_id: bomId, line_number: from + i })))
    .execute()
}

export async function deleteLines(trx: Transaction<Tables>, schema: string, bomId: string) {
  await trx.withSchema(schema).deleteFrom('bom_lines').where('bom_id', '=', bomId).execute()
}

/** Replaces one line of the BOM; false when the BOM has no such line. */
export async function updateLine(
  trx: Transaction<Tables>,
  schema: string,
  bomId: string,
  lineId: string,
  values: LineValues,
) {
  const result = await trx
    .withSchema(schema)
    .updateTable('bom_lines')
    .set(values)
    .where('id', '=', lineId)
    .where('bom_id', '=', bomId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Deletes one line of the BOM; false when the BOM has no such line. */
export async function deleteLine(trx: Transaction<Tables>, schema: string, bomId: string, lineId: string) {
  const result = await trx
    .withSchema(schema)
    .deleteFrom('bom_lines')
    .where('id', '=', lineId)
    .where('bom_id', '=', bomId)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function nextLineNumber(trx: Transaction<Tables>, schema: string, bomId: string) {
  const row = await trx
    .withSchema(schema)
    .selectFrom('bom_lines')
    .select(sql<number>`coalesce(max(line_number), 0) + 1`.as('next'))
    .where('bom_id', '=', bomId)
    .executeTakeFirstOrThrow()
  return Number(row.next)
}

export async function touch(trx: Transaction<Tables>, schema: string, bomId: string) {
  await trx
    .withSchema(schema)
    .updateTable('boms')
    .set({ date_modified: sql<Date>`now()` })
    .where('id', '=', bomId)
    .execute()
}

/** Products usable on a BOM (the business's, not Services, not archived), by id. */
export async function usableProducts(
  db: Executor,
  schema: string,
  businessId: string,
  ids: readonly string[],
) {
  if (ids.length === 0) return new Set<string>()
  const rows = await db
    .withSchema(schema)
    .selectFrom('products')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .where('type', '<>', 'Service')
    .where('archived_at', 'is', null)
    .execute()
  return new Set(rows.map((r) => r.id))
}

/**
 * A path (as SKUs) from the BOM's product back to itself through `components` and the active
 * BOMs of sub-assemblies, or null when adding them makes no cycle. One recursive query.
 */
export async function findCycle(
  db: Executor,
  schema: string,
  rootProductId: string,
  components: readonly string[],
): Promise<string[] | null> {
  if (components.length === 0) return null
  const t = (name: string) => sql.table(`${schema}.${name}`)
  const { rows } = await sql<{ skus: string[] }>`
    WITH RECURSIVE walk(product_id, path) AS (
      SELECT c, ARRAY[${rootProductId}::uuid, c] FROM unnest(${sql.val(components)}::uuid[]) AS c
      UNION ALL
      SELECT l.product_id, w.path || l.product_id
      FROM walk w
      JOIN ${t('boms')} b ON b.product_id = w.product_id AND b.status = 'Active'
      JOIN ${t('bom_lines')} l ON l.bom_id = b.id
      WHERE w.product_id <> ${rootProductId} AND (l.product_id = ${rootProductId} OR NOT l.product_id = ANY(w.path))
    )
    SELECT array(SELECT p.sku FROM unnest(w.path) WITH ORDINALITY AS u(id, n)
                 JOIN ${t('products')} p ON p.id = u.id ORDER BY u.n) AS skus
    FROM walk w WHERE w.product_id = ${rootProductId} LIMIT 1`.execute(db)
  return rows[0]?.skus ?? null
}
