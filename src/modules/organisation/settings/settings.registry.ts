import type { PermissionModule } from '../../../security/permissions.js'
import { DIMENSION_UNITS, normaliseCurrency, WEIGHT_UNITS } from '../business/index.js'

/**
 * The settings the platform itself reads. Any other key may be stored too (as a string, for
 * clients' own use); a known key's value must fit its type. Values travel and are stored as text.
 */
export const SETTING_TYPES = ['string', 'boolean', 'integer', 'decimal', 'uuid', 'currency', 'enum'] as const
export type SettingType = (typeof SETTING_TYPES)[number]

export interface SettingDefinition {
  key: string
  type: SettingType
  module: PermissionModule
  /** As text; null = no value until one is set. */
  default: string | null
  description: string
  /** For `enum`: the allowed values (matched ignoring case, stored as listed). */
  values?: readonly string[]
  /** An extra rule on the text, with the message to show when it fails. */
  rule?: { pattern: RegExp; message: string }
}

const CODE_PREFIX = { pattern: /^[A-Za-z0-9]{1,10}$/, message: 'must be 1 to 10 letters or digits' }

export const KNOWN_SETTINGS = [
  {
    key: 'currency.default',
    type: 'currency',
    module: 'Settings',
    default: 'USD',
    description: 'Currency of new orders and prices when none is given (ISO 4217)',
  },
  {
    key: 'notifications.emailEnabled',
    type: 'boolean',
    module: 'Settings',
    default: 'true',
    description: 'Send notification emails as well as in-app notifications',
  },
  {
    key: 'orders.codePrefix',
    type: 'string',
    module: 'Orders',
    default: 'ORD',
    description: 'Prefix of new order codes (ORD-000123)',
    rule: CODE_PREFIX,
  },
  {
    key: 'orders.shortConfirmation',
    type: 'enum',
    module: 'Orders',
    default: 'Backorder',
    values: ['Backorder', 'Refuse'],
    description:
      'What confirming an order short of stock does: Backorder (reserve what there is, backorder the rest) or Refuse (409 naming each short line)',
  },
  {
    key: 'customers.codePrefix',
    type: 'string',
    module: 'Customers',
    default: 'CUS',
    description: 'Prefix of new customer codes (CUS-000123)',
    rule: CODE_PREFIX,
  },
  {
    key: 'dispatch.codePrefix',
    type: 'string',
    module: 'Shipments',
    default: 'DSP',
    description: 'Prefix of new delivery plan (dispatch) codes',
    rule: CODE_PREFIX,
  },
  {
    key: 'shipments.codePrefix',
    type: 'string',
    module: 'Shipments',
    default: 'SHP',
    description: 'Prefix of new shipment codes',
    rule: CODE_PREFIX,
  },
  {
    key: 'delivery.failedDeliveryAction',
    type: 'enum',
    module: 'Shipments',
    default: 'Replan',
    values: ['Replan', 'ReturnToStock'],
    description:
      'What completing a plan does with its failed deliveries (unless the stop chose): Replan (back to Pending, for a later plan) or ReturnToStock (Returned)',
  },
  {
    key: 'delivery.defaultServiceMinutes',
    type: 'decimal',
    module: 'Shipments',
    default: '5',
    description:
      'Minutes spent at a stop when planning a day, for shipments without their own serviceMinutes (unless the plan-day request gives serviceMinutes)',
    rule: { pattern: /^(\d{1,3})(\.\d{1,2})?$/, message: 'must be minutes from 0 to 999.99' },
  },
  {
    key: 'delivery.averageSpeedKmh',
    type: 'decimal',
    module: 'Shipments',
    default: null,
    description:
      'Average speed in km/h that planning a day drives at over great-circle distances (null: the server’s PLANNING_SPEED_KMH; unused with a road network)',
    rule: {
      pattern: /^(?!0+(\.0+)?$)\d{1,3}(\.\d{1,2})?$/,
      message: 'must be a speed above 0 and below 1000',
    },
  },
  {
    key: 'stock.allowNegative',
    type: 'boolean',
    module: 'Products',
    default: 'false',
    description: 'Allow stock issues that take a product below zero on hand',
  },
  {
    key: 'packages.defaultPresetId',
    type: 'uuid',
    module: 'Products',
    default: null,
    description: 'Dimension preset used for a new package when none is chosen',
  },
  {
    key: 'packages.defaultWeightUnit',
    type: 'enum',
    module: 'Products',
    default: 'Kg',
    values: WEIGHT_UNITS,
    description: 'Weight unit of new packages and presets',
  },
  {
    key: 'packages.defaultDimensionUnit',
    type: 'enum',
    module: 'Products',
    default: 'Cm',
    values: DIMENSION_UNITS,
    description: 'Dimension unit of new packages and presets',
  },
  {
    key: 'purchasing.receiptTolerancePercent',
    type: 'decimal',
    module: 'PurchaseOrders',
    default: '0',
    description:
      'How much more than ordered a purchase order line may receive, in percent of its quantity (0: never more; at most 1000 counts)',
  },
] as const satisfies readonly SettingDefinition[]

export type KnownSetting = (typeof KNOWN_SETTINGS)[number]
export type KnownSettingKey = KnownSetting['key']

const BY_KEY: ReadonlyMap<string, SettingDefinition> = new Map(KNOWN_SETTINGS.map((s) => [s.key, s]))

export const knownSetting = (key: string): SettingDefinition | undefined => BY_KEY.get(key)

/** Keys: 1 to 100 of letters, digits, dot, underscore, hyphen (case-sensitive). Values: up to 4000 characters. */
export const SETTING_KEY_PATTERN = /^[A-Za-z0-9._-]{1,100}$/
export const SETTING_KEY_PATTERN_TEXT = '^[A-Za-z0-9._-]+$'
export const MAX_VALUE_LENGTH = 4000
export const MAX_KEYS_PER_SAVE = 100

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const INTEGER = /^[+-]?\d{1,15}$/
const DECIMAL = /^[+-]?\d{1,18}(\.\d{1,10})?$/

/** Checks a value against a known setting's type; the normalised text to store, or why it is wrong. */
export function checkSettingValue(
  definition: SettingDefinition,
  raw: string,
): { ok: true; value: string } | { ok: false; message: string } {
  const text = raw.trim()
  const fail = (message: string) => ({ ok: false as const, message })
  switch (definition.type) {
    case 'boolean': {
      const lower = text.toLowerCase()
      return lower === 'true' || lower === 'false'
        ? { ok: true, value: lower }
        : fail("must be 'true' or 'false'")
    }
    case 'integer':
      return INTEGER.test(text) ? { ok: true, value: String(Number(text)) } : fail('must be a whole number')
    case 'decimal':
      if (!DECIMAL.test(text)) return fail('must be a decimal number such as 12.5')
      if (definition.rule && !definition.rule.pattern.test(text)) return fail(definition.rule.message)
      return { ok: true, value: text }
    case 'uuid':
      return UUID.test(text) ? { ok: true, value: text.toLowerCase() } : fail('must be a UUID')
    case 'currency': {
      const code = normaliseCurrency(text)
      return code ? { ok: true, value: code } : fail('must be an ISO 4217 currency code, e.g. USD')
    }
    case 'enum': {
      const value = definition.values?.find((v) => v.toLowerCase() === text.toLowerCase())
      return value ? { ok: true, value } : fail(`must be one of ${definition.values?.join(', ')}`)
    }
    case 'string':
      if (definition.rule && !definition.rule.pattern.test(text)) return fail(definition.rule.message)
      return { ok: true, value: definition.rule ? text : raw }
  }
}

/** The registry as a Markdown table, for the OpenAPI descriptions. */
export function registryTable(): string {
  const rows = KNOWN_SETTINGS.map((s) => {
    const type = 'values' in s ? `enum (${s.values.join(', ')})` : s.type
    return `| ${s.key} | ${type} | ${s.module} | ${s.default ?? 'null'} | ${s.description} |`
  })
  return ['| key | type | module | default | description |', '|---|---|---|---|---|', ...rows].join('\n')
}
