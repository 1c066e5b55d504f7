import { type Selectable, sql, type Transaction } from 'kysely'
import { lockUntilCommit } from '../../../db/advisory-lock.js'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import type { Tables } from '../../../db/tables.js'
import { conflict, notFound, validationFailed } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSettings } from '../../organisation/index.js'
import { decimalReasons, num } from '../decimals.js'
import type { DimensionUnit, WeightUnit } from '../products/products.schemas.js'
import { DIMENSION_TEMPLATES } from './dimension-templates.js'
import type {
  DimensionPresetRequest,
  DimensionPresetResponse,
  GeometryFieldSymbol,
} from './dimensions.schemas.js'
import type { DimensionPresetsTable } from './dimensions.tables.js'

const presetNotFound = () =>
  notFound('dimension_preset_not_found', 'No dimension preset of this business has this id.')

function toPreset(row: Selectable<DimensionPresetsTable>): DimensionPresetResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    name: row.name,
    length: Number(row.length),
    width: Number(row.width),
    height: Number(row.height),
    dimensionUnit: row.dimension_unit as DimensionUnit,
    maxWeight: num(row.max_weight),
    weightUnit: row.weight_unit as WeightUnit,
    isDefault: row.is_default,
    country: row.country,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

const presets = (db: Database['db'] | Transaction<Tables>, auth: BusinessAuth) =>
  db
    .withSchema(auth.schemaName)
    .selectFrom('dimension_presets')
    .selectAll()
    .where('business_id', '=', auth.businessId)

export async function listPresets(database: Database, auth: BusinessAuth) {
  const rows = await presets(database.db, auth)
    .orderBy('is_default', 'desc')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute()
  return rows.map(toPreset)
}

export const listTemplates = (): DimensionPresetResponse[] =>
  DIMENSION_TEMPLATES.map(({ id, ...t }) => ({ id, ...t, isDefault: false }))

export async function defaultPreset(database: Database, auth: BusinessAuth) {
  const row = await presets(database.db, auth).where('is_default', '=', true).executeTakeFirst()
  if (!row) throw notFound('no_default_preset', 'This business has no dimension presets yet.')
  return toPreset(row)
}

function values(request: DimensionPresetRequest) {
  const { length, width, height, maxWeight } = request
  const reasons = decimalReasons({ length, width, height, maxWeight })
  const name = request.name.trim()
  if (!name) reasons.push({ field: 'name', message: 'must not be blank' })
  if (reasons.length > 0) throw validationFailed(reasons)
  return {
    name,
    length,
    width,
    height,
    dimension_unit: request.dimensionUnit,
    max_weight: maxWeight ?? null,
    weight_unit: request.weightUnit,
    country: request.country?.toUpperCase() ?? null,
  }
}

/** Serialises default changes of one business (first preset, switching, deleting the default). */
async function lockPresets(trx: Transaction<Tables>, auth: BusinessAuth) {
  await lockUntilCommit(trx, `dimension_presets:${auth.businessId}`)
}

async function clearDefault(trx: Transaction<Tables>, auth: BusinessAuth) {
  await trx
    .withSchema(auth.schemaName)
    .updateTable('dimension_presets')
    .set({ is_default: false })
    .where('business_id', '=', auth.businessId)
    .where('is_default', '=', true)
    .execute()
}

export async function createPreset(database: Database, auth: BusinessAuth, request: DimensionPresetRequest) {
  const fields = values(request)
  return database.db.transaction().execute(async (trx) => {
    await lockPresets(trx, auth)
    const hasDefault = await presets(trx, auth).where('is_default', '=', true).executeTakeFirst()
    const isDefault = request.isDefault === true || !hasDefault
    if (isDefault && hasDefault) await clearDefault(trx, auth)
    const id = newId()
    await trx
      .withSchema(auth.schemaName)
      .insertInto('dimension_presets')
      .values({ ...fields, id, business_id: auth.businessId, is_default: isDefault })
      .execute()
    return toPreset(await presets(trx, auth).where('id', '=', id).executeTakeFirstOrThrow())
  })
}

export async function updatePreset(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: DimensionPresetRequest,
) {
  const fields = values(request)
  return database.db.transaction().execute(async (trx) => {
    await lockPresets(trx, auth)
    const current = await presets(trx, auth).where('id', '=', id).executeTakeFirst()
    if (!current) throw presetNotFound()
    if (current.is_default && request.isDefault === false)
      throw conflict(
        'default_preset_required',
        'A business keeps one default preset: make another preset the default instead.',
      )
    if (request.isDefault === true && !current.is_default) await clearDefault(trx, auth)
    const isDefault = current.is_default || request.isDefault === true
    await trx
      .withSchema(auth.schemaName)
      .updateTable('dimension_presets')
      .set({ ...fields, is_default: isDefault, date_modified: sql<Date>`now()` })
      .where('id', '=', id)
      .execute()
    return toPreset(await presets(trx, auth).where('id', '=', id).executeTakeFirstOrThrow())
  })
}

/** Deletes a preset; when it was the default, the oldest remaining preset becomes the default. */
export async function deletePreset(database: Database, auth: BusinessAuth, id: string) {
  return database.db.transaction().execute(async (trx) => {
    await lockPresets(trx, auth)
    const current = await presets(trx, auth).where('id', '=', id).executeTakeFirst()
    if (!current) throw presetNotFound()
    const db = trx.withSchema(auth.schemaName)
    await db.deleteFrom('dimension_presets').where('id', '=', id).execute()
    if (current.is_default) {
      const next = await presets(trx, auth).orderBy('date_created').orderBy('id').executeTakeFirst()
      if (next)
        await db
          .updateTable('dimension_presets')
          .set({ is_default: true })
          .where('id', '=', next.id)
          .execute()
    }
    return true
  })
}

const SYMBOLS: Record<string, string> = {
  Mm: 'mm',
  Cm: 'cm',
  M: 'm',
  In: 'in',
  Ft: 'ft',
  G: 'g',
  Kg: 'kg',
  Lb: 'lb',
  Oz: 'oz',
}
const pascal = (unit: string) => unit.charAt(0).toUpperCase() + unit.slice(1).toLowerCase()
/** Countries whose parcels are measured in inches and pounds. */
const IMPERIAL = new Set(['US', 'LR', 'MM'])

/**
 * The business's units: its package settings when set to something other than the metric defaults,
 * else by its country (inches and pounds in the US, Liberia and Myanmar; centimetres and kilograms elsewhere).
 */
export async function defaultDimensions(
  database: Database,
  auth: BusinessAuth,
): Promise<GeometryFieldSymbol> {
  const [settings, business] = await Promise.all([
    readSettings(database.db, auth.schemaName, auth.businessId),
    database.db
      .withSchema(auth.schemaName)
      .selectFrom('businesses')
      .select('address')
      .where('id', '=', auth.businessId)
      .executeTakeFirst(),
  ])
  const address = business?.address as { country?: string | null } | null
  const country = address?.country ? String(address.country).toUpperCase() : null
  const imperial = country !== null && IMPERIAL.has(country)
  const dimension =
    String(settings['packages.defaultDimensionUnit']) !== 'Cm'
      ? pascal(settings['packages.defaultDimensionUnit'])
      : imperial
        ? 'In'
        : 'Cm'
  const weight =
    String(settings['packages.defaultWeightUnit']) !== 'Kg'
      ? pascal(settings['packages.defaultWeightUnit'])
      : imperial
        ? 'Lb'
        : 'Kg'
  return {
    country,
    dimensionUnit: dimension as DimensionUnit,
    dimensionSymbol: SYMBOLS[dimension] ?? dimension.toLowerCase(),
    weightUnit: weight as WeightUnit,
    weightSymbol: SYMBOLS[weight] ?? weight.toLowerCase(),
  }
}
