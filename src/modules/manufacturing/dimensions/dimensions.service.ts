import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { validationFailed } from '../../../errors.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { readSettings } from '../../organisation/index.js'
import { decimalReasons, num } from '../decimals.js'
import type { DimensionUnit, WeightUnit } from '../products/index.js'
import { DIMENSION_TEMPLATES } from './dimension-templates.js'
import { defaultPresetRequired, noDefaultPreset, presetNotFound } from './dimensions.errors.js'
import * as repository from './dimensions.repository.js'
import type {
  DimensionPresetRequest,
  DimensionPresetResponse,
  GeometryFieldSymbol,
} from './dimensions.schemas.js'

function toPreset(row: repository.PresetRow): DimensionPresetResponse {
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

export async function listPresets(database: Database, auth: BusinessAuth) {
  const rows = await repository.listPresets(database.db, auth.schemaName, auth.businessId)
  return rows.map(toPreset)
}

export const listTemplates = (): DimensionPresetResponse[] =>
  DIMENSION_TEMPLATES.map(({ id, ...t }) => ({ id, ...t, isDefault: false }))

export async function defaultPreset(database: Database, auth: BusinessAuth) {
  const row = await repository.findDefaultPreset(database.db, auth.schemaName, auth.businessId)
  if (!row) throw noDefaultPreset()
  return toPreset(row)
}

function values(request: DimensionPresetRequest): repository.PresetValues {
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

/** The first preset of a business is its default, and so is one created with isDefault true. */
export async function createPreset(database: Database, auth: BusinessAuth, request: DimensionPresetRequest) {
  const fields = values(request)
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    await repository.lockPresets(trx, businessId)
    const hasDefault = await repository.findDefaultPreset(trx, schema, businessId)
    const isDefault = request.isDefault === true || !hasDefault
    if (isDefault && hasDefault) await repository.clearDefault(trx, schema, businessId)
    const id = newId()
    await repository.insertPreset(trx, schema, {
      ...fields,
      id,
      business_id: businessId,
      is_default: isDefault,
    })
    return toPreset((await repository.findPreset(trx, schema, businessId, id))!)
  })
}

/** Replaces a preset; the default stays the default (409 for isDefault false on it). */
export async function updatePreset(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: DimensionPresetRequest,
) {
  const fields = values(request)
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    await repository.lockPresets(trx, businessId)
    const current = await repository.findPreset(trx, schema, businessId, id)
    if (!current) throw presetNotFound()
    if (current.is_default && request.isDefault === false) throw defaultPresetRequired()
    if (request.isDefault === true && !current.is_default)
      await repository.clearDefault(trx, schema, businessId)
    const isDefault = current.is_default || request.isDefault === true
    await repository.updatePreset(trx, schema, id, { ...fields, is_default: isDefault })
    return toPreset((await repository.findPreset(trx, schema, businessId, id))!)
  })
}

/** Deletes a preset; when it was the default, the oldest remaining preset becomes the default. */
export async function deletePreset(database: Database, auth: BusinessAuth, id: string) {
  const { schemaName: schema, businessId } = auth
  return database.db.transaction().execute(async (trx) => {
    await repository.lockPresets(trx, businessId)
    const current = await repository.findPreset(trx, schema, businessId, id)
    if (!current) throw presetNotFound()
    await repository.deletePreset(trx, schema, id)
    if (current.is_default) {
      const next = await repository.oldestPreset(trx, schema, businessId)
      if (next) await repository.makeDefault(trx, schema, next.id)
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
  const [settings, stored] = await Promise.all([
    readSettings(database.db, auth.schemaName, auth.businessId),
    repository.businessAddress(database.db, auth.schemaName, auth.businessId),
  ])
  const address = stored as { country?: string | null } | null | undefined
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
