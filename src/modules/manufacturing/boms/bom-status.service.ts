import { lockedAt } from '../../../db/applied-at.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import * as statusRepository from './bom-status.repository.js'
import { bomActive, bomInUse, bomNotFound, cannotActivate, cycle } from './boms.errors.js'
import { findCycle, insertBom, lockActivations, lockBom } from './boms.repository.js'
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
    const lines = await statusRepository.lineProductIds(trx, schema, bomId)
    for (const [i, line] of lines.entries()) {
      const path = await findCycle(trx, schema, bom.product_id, [line.product_id])
      if (path) throw cycle(`lineItems.${i}.productId`, path)
    }
    const now = await lockedAt(trx)
    await statusRepository.archiveActiveBom(trx, schema, bom.product_id, now)
    await statusRepository.recordActivation(trx, schema, bom.product_id, bomId, now)
    await statusRepository.markActive(trx, schema, bomId, now)
    return loadBom(trx, auth, bomId)
  })
}

/** Copies any BOM, lines included, into a new Draft revision with the same code (revision = highest + 1). */
export async function reviseBom(database: Database, auth: BusinessAuth, bomId: string): Promise<BomResponse> {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    const bom = await lockBom(trx, schema, businessId, bomId)
    if (!bom) throw bomNotFound()
    // Revisions of one code are numbered under the source's lock plus the unique index.
    const revision = await statusRepository.nextRevision(trx, schema, businessId, bom.code)
    const id = newId()
    await insertBom(trx, schema, {
      id,
      business_id: businessId,
      product_id: bom.product_id,
      code: bom.code,
      name: bom.name,
      revision,
      output_quantity: bom.output_quantity,
      notes: bom.notes,
      revised_from_id: bom.id,
    })
    await statusRepository.copyLines(trx, schema, bomId, id)
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
    if (await statusRepository.usedByWorkOrder(trx, schema, bomId)) throw bomInUse()
    await statusRepository.deleteBom(trx, schema, bomId)
    return true
  })
}
