import type { Executor } from '../../../db/tables.js'
import {
  KNOWN_SETTINGS,
  type KnownSetting,
  type KnownSettingKey,
  type SettingDefinition,
} from './settings.registry.js'
import { storedSettings } from './settings.repository.js'

/** booleans and integers as JS values; decimals stay text so no precision is lost; enums as their union. */
type ValueOf<S extends KnownSetting> = S extends { values: readonly (infer V)[] }
  ? V
  : S['type'] extends 'boolean'
    ? boolean
    : S['type'] extends 'integer'
      ? number
      : string

/** Every known setting with its typed value; null only where the setting has no default. */
export type SettingValues = {
  [S in KnownSetting as S['key']]: S['default'] extends null ? ValueOf<S> | null : ValueOf<S>
}

/** Text to a typed value, or undefined when it does not fit the type. */
function convert(type: SettingDefinition['type'], text: string): unknown {
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined
  if (type === 'integer')
    return Number.isSafeInteger(Number(text)) && text.trim() !== '' ? Number(text) : undefined
  return text
}

/** Stored text (null = none) to a typed value; text that no longer fits the type gives the default. */
function parse(definition: SettingDefinition, text: string | null): unknown {
  const value = text === null ? undefined : convert(definition.type, text)
  if (value !== undefined) return value
  return definition.default === null ? null : (convert(definition.type, definition.default) ?? null)
}

/** The business's settings: what it stored, merged over the defaults (one query). */
export async function readSettings(
  db: Executor,
  schemaName: string,
  businessId: string,
): Promise<SettingValues> {
  const stored = new Map(
    (await storedSettings(db, schemaName, businessId)).map((row) => [row.key, row.value]),
  )
  return Object.fromEntries(
    KNOWN_SETTINGS.map((s) => [s.key, parse(s, stored.get(s.key) ?? null)]),
  ) as SettingValues
}

/** One setting of the business, typed (one query). */
export async function readSetting<K extends KnownSettingKey>(
  db: Executor,
  schemaName: string,
  businessId: string,
  key: K,
): Promise<SettingValues[K]> {
  const definition = KNOWN_SETTINGS.find((s) => s.key === key) as SettingDefinition
  const [row] = await storedSettings(db, schemaName, businessId, [key])
  return parse(definition, row?.value ?? null) as SettingValues[K]
}
