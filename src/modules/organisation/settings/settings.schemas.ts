import { type Static, Type } from '@sinclair/typebox'
import { EnumType } from '../../../http/enums.js'
import { DateTime, Nullable } from '../../../http/schema-helpers.js'
import { PERMISSION_MODULES } from '../../../security/permissions.js'
import { MAX_VALUE_LENGTH, SETTING_TYPES } from './settings.registry.js'

/** A setting's value or null, as one schema with a type list: a `Nullable(Type.String())` (anyOf) would be coerced from null to "". */
export const NullableValue = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: MAX_VALUE_LENGTH, description })

export const AppConfigurationResponse = Type.Object({
  key: Type.String(),
  value: Nullable(
    Type.String({ description: 'the stored value, else the default; null when neither exists' }),
  ),
  type: Type.Union(
    SETTING_TYPES.map((t) => Type.Literal(t)),
    { description: 'how the value is read; keys outside the registry are string' },
  ),
  module: Nullable(
    EnumType(PERMISSION_MODULES, {
      base: 1,
      description: 'the module that reads it; null for keys outside the registry',
    }),
  ),
  description: Nullable(Type.String()),
  isDefault: Type.Boolean({ description: 'true when nothing is stored and the default applies' }),
  dateModified: Nullable(DateTime({ description: 'when the stored value last changed; null for a default' })),
})
export type AppConfigurationResponse = Static<typeof AppConfigurationResponse>

export const SettingsQuery = Type.Object({
  keys: Type.Optional(
    Type.String({
      maxLength: 10_000,
      description: 'comma-separated keys (case-sensitive) to return; absent = all',
    }),
  ),
})

export const SaveBusinessSettingsBody = Type.Record(
  Type.String(),
  NullableValue('the new value as text (at most 4000 characters); null = back to the default'),
  {
    description:
      'Keys (1 to 100 characters of A-Z a-z 0-9 . _ -, at most 100 per request) to values. A known key must fit its type; other keys are stored as text.',
    examples: [
      { 'stock.allowNegative': 'true', 'orders.codePrefix': 'SO', 'packages.defaultPresetId': null },
    ],
  },
)
export type SaveBusinessSettingsBody = Static<typeof SaveBusinessSettingsBody>

const PermissionModuleType = EnumType(PERMISSION_MODULES, {
  base: 1,
  description: 'PermissionModule (M1 = Orders).',
})

export const ModuleParams = Type.Object({ module: PermissionModuleType })
