import type { Database } from '../../../db/database.js'
import { type Reason, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import type { PermissionModule } from '../../../security/permissions.js'
import {
  checkSettingValue,
  KNOWN_SETTINGS,
  knownSetting,
  MAX_KEYS_PER_SAVE,
  SETTING_KEY_PATTERN,
  type SettingDefinition,
} from './settings.registry.js'
import * as repository from './settings.repository.js'
import type { AppConfigurationResponse, SaveBusinessSettingsBody } from './settings.schemas.js'

type StoredRow = Awaited<ReturnType<typeof repository.storedSettings>>[number]

function toResponse(definition: SettingDefinition | undefined, key: string, row: StoredRow | undefined) {
  return {
    key,
    value: row ? row.value : (definition?.default ?? null),
    type: definition?.type ?? 'string',
    module: definition?.module ?? null,
    description: definition?.description ?? null,
    isDefault: row === undefined,
    dateModified: row?.date_modified.toISOString() ?? null,
  } satisfies AppConfigurationResponse
}

/** Every known setting (stored or default) plus every stored key outside the registry, by key. */
async function allSettings(database: Database, auth: BusinessAuth, keys?: readonly string[]) {
  const rows = await repository.storedSettings(database.db, auth.schemaName, auth.businessId, keys)
  const stored = new Map(rows.map((row) => [row.key, row]))
  const wanted = keys ? new Set(keys) : undefined
  const items = KNOWN_SETTINGS.filter((s) => !wanted || wanted.has(s.key)).map((s) =>
    toResponse(s, s.key, stored.get(s.key)),
  )
  for (const row of rows) if (!knownSetting(row.key)) items.push(toResponse(undefined, row.key, row))
  return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/** `keys=a,b`: trimmed, blanks dropped; absent or blank = every key. */
function parseKeys(text: string | undefined): string[] | undefined {
  const keys = text
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean)
  return keys && keys.length > 0 ? [...new Set(keys)] : undefined
}

/** All settings on one page (the list is short and bounded by the registry plus what was saved). */
export async function listBusinessSettings(
  database: Database,
  auth: BusinessAuth,
  keysParam: string | undefined,
) {
  const items = await allSettings(database, auth, parseKeys(keysParam))
  return paged('core', items, items.length, { page: 1, pageSize: Math.max(1, items.length) })
}

export async function settingsForModule(database: Database, auth: BusinessAuth, module: PermissionModule) {
  const keys = KNOWN_SETTINGS.filter((s) => s.module === module).map((s) => s.key)
  return allSettings(database, auth, keys)
}

/** Checks every key and value first (one reason per bad key), then writes all in one transaction. */
export async function saveBusinessSettings(
  database: Database,
  auth: BusinessAuth,
  body: SaveBusinessSettingsBody,
): Promise<boolean> {
  const entries = Object.entries(body)
  if (entries.length > MAX_KEYS_PER_SAVE) {
    throw validationFailed([{ field: 'body', message: `at most ${MAX_KEYS_PER_SAVE} keys per request` }])
  }
  const reasons: Reason[] = []
  const changes = new Map<string, string | null>()
  for (const [key, value] of entries) {
    if (!SETTING_KEY_PATTERN.test(key)) {
      reasons.push({ field: key || '(empty key)', message: 'keys are 1 to 100 of A-Z a-z 0-9 . _ -' })
      continue
    }
    const definition = knownSetting(key)
    if (value === null || !definition) {
      changes.set(key, value)
      continue
    }
    const checked = checkSettingValue(definition, value)
    if (checked.ok) changes.set(key, checked.value)
    else reasons.push({ field: key, message: checked.message })
  }
  if (reasons.length > 0) throw validationFailed(reasons)
  if (changes.size === 0) return true
  await database.db
    .transaction()
    .execute((trx) => repository.saveSettings(trx, auth.schemaName, auth.businessId, changes))
  return true
}
