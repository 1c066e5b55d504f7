import { type Insertable, sql, type Transaction } from 'kysely'
import { lockUntilCommit } from '../../../db/advisory-lock.js'
import type { Executor, Tables } from '../../../db/tables.js'
import type { DimensionPresetsTable } from './dimensions.tables.js'

function scopedPresets(db: Executor, schema: string, businessId: string) {
  return db
    .withSchema(schema)
    .selectFrom('dimension_presets')
    .selectAll()
    .where('business_id', '=', businessId)
}

export type PresetRow = NonNullable<Awaited<ReturnType<typeof findPreset>>>

/** The default first, then by name. */
export function listPresets(db: Executor, schema: string, businessId: string) {
  return scopedPresets(db, schema, businessId)
    .orderBy('is_default', 'desc')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute()
}

export function findPreset(db: Executor, schema: string, businessId: string, id: string) {
  return scopedPresets(db, schema, businessId).where('id', '=', id).executeTakeFirst()
}

/**
 * True when the preset is the business's; its row is then share-locked until commit, so a
 * concurrent deletion waits for the record that refers to it (and then clears the reference).
 */
export async function lockPresetForReference(db: Executor, schema: string, businessId: string, id: string) {
  const row = await db
    .withSchema(schema)
    .selectFrom('dimension_presets')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forKeyShare()
    .executeTakeFirst()
  return row !== undefined
}

export function findDefaultPreset(db: Executor, schema: string, businessId: string) {
  return scopedPresets(db, schema, businessId).where('is_default', '=', true).executeTakeFirst()
}

/** The oldest preset: the default once the default is deleted. */
export function oldestPreset(db: Executor, schema: string, businessId: string) {
  return scopedPresets(db, schema, businessId).orderBy('date_created').orderBy('id').executeTakeFirst()
}

/** Serialises default changes of one business (first preset, switching, deleting the default). */
export async function lockPresets(trx: Transaction<Tables>, businessId: string) {
  await lockUntilCommit(trx, `dimension_presets:${businessId}`)
}

export async function clearDefault(trx: Transaction<Tables>, schema: string, businessId: string) {
  await trx
    .withSchema(schema)
    .updateTable('dimension_presets')
    .set({ is_default: false })
    .where('business_id', '=', businessId)
    .where('is_default', '=', true)
    .execute()
}

/** The fields of a preset a client sets (the default flag apart). */
export interface PresetValues {
  name: string
  length: number
  width: number
  height: number
  dimension_unit: string
  max_weight: number | null
  weight_unit: string
  country: string | null
}

export async function insertPreset(
  trx: Transaction<Tables>,
  schema: string,
  values: Insertable<DimensionPresetsTable>,
) {
  await trx.withSchema(schema).insertInto('dimension_presets').values(values).execute()
}

export async function updatePreset(
  trx: Transaction<Tables>,
  schema: string,
  id: string,
  values: PresetValues & { is_default: boolean },
) {
  await trx
    .withSchema(schema)
    .updateTable('dimension_presets')
    .set({ ...values, date_modified: sql<Date>`now()` })
    .where('id', '=', id)
    .execute()
}

export async function deletePreset(trx: Transaction<Tables>, schema: string, id: string) {
  await trx.withSchema(schema).deleteFrom('dimension_presets').where('id', '=', id).execute()
}

export async function makeDefault(trx: Transaction<Tables>, schema: string, id: string) {
  await trx
    .withSchema(schema)
    .updateTable('dimension_presets')
    .set({ is_default: true })
    .where('id', '=', id)
    .execute()
}

/** The business's address (its country decides the default units). */
export async function businessAddress(db: Executor, schema: string, businessId: string) {
  const business = await db
    .withSchema(schema)
    .selectFrom('businesses')
    .select('address')
    .where('id', '=', businessId)
    .executeTakeFirst()
  return business?.address
}
