/**
 * The checks the Core API makes on a known setting's value (PATCH /api/settings/business), made in
 * the form first so a mistake shows at its field before anything is sent. The server stays the
 * judge: whatever it refuses is shown at the field it names as well.
 */
export type SettingType = 'string' | 'boolean' | 'integer' | 'decimal' | 'uuid' | 'currency' | 'enum'

/** The values of the enum settings (the API matches them ignoring case and stores them as listed). */
export const ENUM_VALUES: Record<string, readonly string[]> = {
  'orders.shortConfirmation': ['Backorder', 'Refuse'],
  'delivery.failedDeliveryAction': ['Replan', 'ReturnToStock'],
  'packages.defaultWeightUnit': ['G', 'Kg', 'Lb', 'Oz'],
  'packages.defaultDimensionUnit': ['Mm', 'Cm', 'M', 'In', 'Ft'],
}

const CODE_PREFIX = { pattern: /^[A-Za-z0-9]{1,10}$/, message: 'must be 1 to 10 letters or digits' }

/** Extra rules some settings have beyond their type. */
const RULES: Record<string, { pattern: RegExp; message: string }> = {
  'orders.codePrefix': CODE_PREFIX,
  'customers.codePrefix': CODE_PREFIX,
  'dispatch.codePrefix': CODE_PREFIX,
  'shipments.codePrefix': CODE_PREFIX,
  'delivery.defaultServiceMinutes': {
    pattern: /^(\d{1,3})(\.\d{1,2})?$/,
    message: 'must be minutes from 0 to 999.99',
  },
  'delivery.averageSpeedKmh': {
    pattern: /^(?!0+(\.0+)?$)\d{1,3}(\.\d{1,2})?$/,
    message: 'must be a speed above 0 and below 1000',
  },
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const INTEGER = /^[+-]?\d{1,15}$/
const DECIMAL = /^[+-]?\d{1,18}(\.\d{1,10})?$/

let currencies: Set<string> | undefined

/** An ISO 4217 code the runtime knows (as the server asks Intl), or any three letters where Intl cannot list them. */
function isCurrency(text: string): boolean {
  if (!/^[A-Za-z]{3}$/.test(text)) return false
  if (typeof Intl.supportedValuesOf !== 'function') return true
  currencies ??= new Set(Intl.supportedValuesOf('currency'))
  return currencies.has(text.toUpperCase())
}

/** Why a value does not fit the setting, or null when it does. */
export function settingProblem(key: string, type: SettingType, raw: string): string | null {
  const text = raw.trim()
  const rule = RULES[key]
  switch (type) {
    case 'boolean':
      return /^(true|false)$/i.test(text) ? null : "must be 'true' or 'false'"
    case 'integer':
      return INTEGER.test(text) ? null : 'must be a whole number'
    case 'decimal':
      if (!DECIMAL.test(text)) return 'must be a decimal number such as 12.5'
      return rule && !rule.pattern.test(text) ? rule.message : null
    case 'uuid':
      return UUID.test(text) ? null : 'must be a UUID'
    case 'currency':
      return isCurrency(text) ? null : 'must be an ISO 4217 currency code, e.g. USD'
    case 'enum': {
      const values = ENUM_VALUES[key]
      if (!values) return null
      return values.some((v) => v.toLowerCase() === text.toLowerCase())
        ? null
        : `must be one of ${values.join(', ')}`
    }
    case 'string':
      return rule && !rule.pattern.test(text) ? rule.message : null
  }
}
