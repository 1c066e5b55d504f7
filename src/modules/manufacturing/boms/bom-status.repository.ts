import { sql, type Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'

/** The products on the BOM's lines, in line order (for the cycle check at activation). */
export function lineProductIds(trx: Transaction<Tables>, schema: string, bomId: string) {
  return trx
    .withSchema(schema)
    .selectFrom('bom_lines')
    .select('product_id')
    .where('bom_id', '=', bomId)
    .orderBy('line_number')
    .execute()
}

/** The product's active BOM becomes Archived at `at`. */
export async function archiveActiveBom(
  trx: Transaction<Tables>,
  schema: string,
  productId: string,
  at: Date,
) {
  await trx
    .withSchema(schema)
    .updateTable('boms')
    .set({ status: 'Archived', archived_at: at, date_modified: at })
    .where('product_id', '=', productId)
    .where('status', '=', 'Active')
    .execute()
}

/** The activation history: closes the product's open period at `at` and opens the BOM's from `at`. */
export async function recordActivation(
  trx: Transaction<Tables>,
  schema: string,
  productId: string,
  bomId: string,
  at: Date,
) {
  const db = trx.withSchema(schema)
  await db
    .updateTable('bom_activations')
    .set({ active_to: at })
    .where('product_id', '=', productId)
    .where('active_to', 'is', null)
    .execute()
  await db
    .insertInto('bom_activations')
    .values({ product_id: productId, bom_id: bomId, active_from: at })
    .execute()
}

export async function markActive(trx: Transaction<Tables>, schema: string, bomId: string, at: Date) {
  await trx
    .withSchema(schema)
    .updateTable('boms')
    .set({ status: 'Active', activated_at: at, date_modified: at })
    .where('id', '=', bomId)
    .execute()
}

/** The revision a new copy of `code` takes: the highest so far + 1. */
export async function nextRevision(
  trx: Transaction<Tables>,
  schema: string,
  businessId: string,
  code: string,
) {
  const { next } = await trx
    .withSchema(schema)
    .selectFrom('boms')
    .select(sql<number>`max(revision) + 1`.as('next'))
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  return Number(next)
}

/** Copies the lines of `fromBomId` onto `toBomId` in one statement (new ids, same numbers). */
export async function copyLines(
  trx: Transaction<Tables>,
  schema: string,
  fromBomId: string,
  toBomId: string,
) {
  await sql`
      INSERT INTO ${sql.table(`${schema}.bom_lines`)} (id, bom_id, line_number, product_id, quantity, scrap_percent, notes)
      SELECT gen_random_uuid(), ${toBomId}, line_number, product_id, quantity, scrap_percent, notes
      FROM ${sql.table(`${schema}.bom_lines`)} WHERE bom_id = ${fromBomId}`.execute(trx)
}

/** Whether any work order was made from the BOM. */
export async function usedByWorkOrder(trx: Transaction<Tables>, schema: string, bomId: string) {
  const used = await trx
    .withSchema(schema)
    .selectFrom('work_orders')
    .select('id')
    .where('bom_id', '=', bomId)
    .limit(1)
    .executeTakeFirst()
  return used !== undefined
}

/** Deletes the BOM; revisions copied from it keep their lines and lose the link. */
export async function deleteBom(trx: Transaction<Tables>, schema: string, bomId: string) {
  const db = trx.withSchema(schema)
  await db.updateTable('boms').set({ revised_from_id: null }).where('revised_from_id', '=', bomId).execute()
  await db.deleteFrom('boms').where('id', '=', bomId).execute()
}
