import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { decimalReasons } from '../decimals.js'
import { checkLines } from './bom-lines.rules.js'
import { bomNotEditable, bomNotFound, lineNotFound, productNotUsable } from './boms.errors.js'
import { toBom } from './boms.mapper.js'
import * as repository from './boms.repository.js'
import {
  BOM_STATUSES,
  type BomLineInput,
  type BomResponse,
  type BomStatus,
  type CreateBomRequest,
  type UpdateBomRequest,
} from './boms.schemas.js'

const LIST: ListSpec = {
  fields: {
    code: { column: 'b.code', type: 'string' },
    name: { column: 'b.name', type: 'string' },
    status: { column: 'b.status', type: 'enum', enumValues: BOM_STATUSES },
    productId: { column: 'b.product_id', type: 'uuid' },
    revision: { column: 'b.revision', type: 'number' },
    dateCreated: { column: 'b.date_created', type: 'datetime' },
    dateModified: { column: 'b.date_modified', type: 'datetime' },
  },
  search: ['b.code', 'b.name', 'p.sku', 'p.name'],
  defaultOrder: [{ column: 'b.date_created', direction: 'desc' }],
  tiebreak: 'b.id',
}

export async function listBoms(database: Database, auth: BusinessAuth, query: ListQuery) {
  const scoped = repository.scopedBoms(database.db, auth.schemaName, auth.businessId)
  const { rows, total, page } = await runList(scoped, query, LIST)
  return paged('core', rows.map(toBom), total, page)
}

export async function loadBom(db: Executor, auth: BusinessAuth, bomId: string) {
  const row = await repository.findBom(db, auth.schemaName, auth.businessId, bomId)
  if (!row) throw bomNotFound()
  return toBom(row)
}

export const getBom = (database: Database, auth: BusinessAuth, bomId: string) =>
  loadBom(database.db, auth, bomId)

const outputReasons = (request: { outputQuantity?: number | undefined }) =>
  decimalReasons({ outputQuantity: request.outputQuantity })

export async function createBom(
  database: Database,
  auth: BusinessAuth,
  request: CreateBomRequest,
): Promise<BomResponse> {
  const reasons = outputReasons(request)
  if (reasons.length > 0) throw validationFailed(reasons)
  return database.db.transaction().execute(async (trx) => {
    const usable = await repository.usableProducts(trx, auth.schemaName, auth.businessId, [request.productId])
    if (!usable.has(request.productId)) throw productNotUsable('productId')
    const lines = await checkLines(
      trx,
      auth,
      request.productId,
      request.lineItems ?? [],
      (i) => `lineItems.${i}.`,
    )
    const id = newId()
    await repository.insertBom(trx, auth.schemaName, {
      id,
      business_id: auth.businessId,
      product_id: request.productId,
      code: await nextCode(trx, auth.schemaName, auth.businessId, 'bom', 'BOM'),
      name: request.name.trim(),
      output_quantity: request.outputQuantity ?? 1,
      notes: request.notes?.trim() || null,
    })
    await repository.insertLines(trx, auth.schemaName, id, lines)
    return loadBom(trx, auth, id)
  })
}

/** Runs `change` on a Draft BOM under its row lock; 404 / 409 bom_not_editable otherwise. */
async function editDraft(
  database: Database,
  auth: BusinessAuth,
  bomId: string,
  change: (trx: Transaction<Tables>, bom: { id: string; product_id: string }) => Promise<void>,
): Promise<BomResponse> {
  return database.db.transaction().execute(async (trx) => {
    const bom = await repository.lockBom(trx, auth.schemaName, auth.businessId, bomId)
    if (!bom) throw bomNotFound()
    if (bom.status !== 'Draft') throw bomNotEditable(bom.status as BomStatus)
    await change(trx, bom)
    await repository.touch(trx, auth.schemaName, bomId)
    return loadBom(trx, auth, bomId)
  })
}

export async function updateBom(
  database: Database,
  auth: BusinessAuth,
  bomId: string,
  request: UpdateBomRequest,
) {
  const reasons = outputReasons(request)
  if (reasons.length > 0) throw validationFailed(reasons)
  return editDraft(database, auth, bomId, async (trx, bom) => {
    const values = { name: request.name.trim(), notes: request.notes?.trim() || null }
    await repository.updateBomFields(
      trx,
      auth.schemaName,
      bomId,
      request.outputQuantity === undefined ? values : { ...values, output_quantity: request.outputQuantity },
    )
    if (request.lineItems) {
      const lines = await checkLines(trx, auth, bom.product_id, request.lineItems, (i) => `lineItems.${i}.`)
      await repository.deleteLines(trx, auth.schemaName, bomId)
      await repository.insertLines(trx, auth.schemaName, bomId, lines)
    }
  })
}

export async function addLine(database: Database, auth: BusinessAuth, bomId: string, line: BomLineInput) {
  return editDraft(database, auth, bomId, async (trx, bom) => {
    const [value] = await checkLines(trx, auth, bom.product_id, [line], () => '')
    const from = await repository.nextLineNumber(trx, auth.schemaName, bomId)
    await repository.insertLines(trx, auth.schemaName, bomId, [value!], from)
  })
}

export async function updateLine(
  database: Database,
  auth: BusinessAuth,
  bomId: string,
  lineId: string,
  line: BomLineInput,
) {
  return editDraft(database, auth, bomId, async (trx, bom) => {
    const [value] = await checkLines(trx, auth, bom.product_id, [line], () => '')
    if (!(await repository.updateLine(trx, auth.schemaName, bomId, lineId, value!))) throw lineNotFound()
  })
}

export async function deleteLine(database: Database, auth: BusinessAuth, bomId: string, lineId: string) {
  return editDraft(database, auth, bomId, async (trx) => {
    if (!(await repository.deleteLine(trx, auth.schemaName, bomId, lineId))) throw lineNotFound()
  })
}
