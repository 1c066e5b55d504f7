import { sql } from 'kysely'
import { lockedAt } from '../../../db/applied-at.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { bomActive, bomInUse, bomNotFound, cannotActivate, cycle } from './boms.errors.js'
import { findCycle, lockActivations, lockBom } from './boms.repository.js'
import type { BomResponse, BomStatus } from './boms.schemas.js'
import { loadBom } from './boms.service.js'

/**
 * Draft -> Active. The product's previously active BOM becomes Archived, and the activation history
 * closes its period and opens this one at the same instant (costing as of a date reads it).
 * A line that would now make a cycle through the sub-assemblies' active BOMs is a 400 bom_cycle.
 * Activations of one business take turns (an advisory lock), so the cycle check sees every BOM
 * activated before, and the instant is read after the locks: two BOMs of one product activated in
 * parallel end as one Active and one Archived with periods in order, and two that would make a
 * cycle together cannot both become Active.
 */
export async function activateBom(
  database: Database,
  auth: BusinessAuth,
  bomId: string,
): Promise<BomResponse> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    await lockActivations(trx, businessId)
    const bom = await lockBom(trx, schema, businessId, bomId)
    if (!bom) throw bomNotFound()
    if (bom.status !== 'Draft') throw cannotActivate(bom.status as BomStatus)
    const db = trx.withSchema(schema)
    const lines = await db
      .selectFrom('bom_lines')
      .select('product_id')
      .where('bom_id', '=', bomId)
      .orderBy('line_number')
      .execute()
    for (const [i, line] of lines.entries()) {
      const path = await findCycle(trx, schema, bom.product_id, [line.product_id])
      if (path) throw cycle(`lineItems.${i}.productId`, path)
    }
    const now = await lockedAt(trx)
    await db
      .updateTable('boms')
      .set({ status: 'Archived', archived_at: now, date_modified: now })
      .where('product_id', '=', bom.product_id)
      .where('status', '=', 'Active')
      .execute()
    await db
      .updateTable('bom_activations')
      .set({ active_to: now })
      .where('product_id', '=', bom.product_id)
      .where('active_to', 'is', null)
      .execute()
    await db
      .insertInto('bom_activations')
      .values({ product_id: bom.product_id, bom_id: bomId, active_from: now })
      .execute()
    await db
      .updateTable('boms')
      .set({ status: 'Active', activated_at: now, date_modified: now })
      .where('id', '=', bomId)
      .execute()
    return loadBom(trx, auth, bomId)
  })
}

/** Copies any BOM, lines included, into a new Draft revision with the same code (revision = highest + 1). */
export async function reviseBom(database: Database, auth: BusinessAuth, bomId: string): Promise<BomResponse> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const bom = await lockBom(trx, schema, businessId, bomId)
    if (!bom) throw bomNotFound()
    const db = trx.withSchema(schema)
    // Revisions of one code are numbered under the source's lock plus the unique index.
    const { next } = await db
      .selectFrom('boms')
      .select(sql<number>`max(revision) + 1`.as('next'))
      .where('business_id', '=', businessId)
      .where('code', '=', bom.code)
      .executeTakeFirstOrThrow()
    const id = newId()
    await db
      .insertInto('boms')
      .values({
        id,
        business_id: businessId,
        product_id: bom.product_id,
        code: bom.code,
        name: bom.name,
        revision: Number(next),
        output_quantity: bom.output_quantity,
        notes: bom.notes,
        revised_from_id: bom.id,
      })
      .execute()
    await sql`
      INSERT INTO ${sql.table(`${schema}.bom_lines`)} (id, bom_id, line_number, product_id, quantity, scrap_percent, notes)
      SELECT gen_random_uuid(), ${id}, line_number, product_id, quantity, scrap_percent, notes
      FROM ${sql.table(`${schema}.bom_lines`)} WHERE bom_id = ${bomId}`.execute(trx)
    return loadBom(trx, auth, id)
  })
}

/** Deletes a Draft or Archived BOM no work order used; the active one or a used one is a 409. */
export async function deleteBom(database: Database, auth: BusinessAuth, bomId: string): Promise<boolean> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const bom = await lockBom(trx, schema, businessId, bomId)
    if (!bom) throw bomNotFound()
    if (bom.status === 'Active') throw bomActive()
    const db = trx.withSchema(schema)
    const used = await db
      .selectFrom('work_orders')
      .select('id')
      .where('bom_id', '=', bomId)
      .limit(1)
      .executeTakeFirst()
    if (used) throw bomInUse()
    await db.updateTable('boms').set({ revised_from_id: null }).where('revised_from_id', '=', bomId).execute()
    await db.deleteFrom('boms').where('id', '=', bomId).execute()
    return true
  })
}
