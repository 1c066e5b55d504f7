/**
 * Reference data a business form needs (currencies, time zones, countries, units), derived from
 * the ICU data built into Node's Intl rather than from hand-kept lists, and computed once per process.
 */

export interface CurrencyInfo {
  code: string
  name: string
  symbol: string
  decimals: number
}
export interface TimezoneInfo {
  id: string
  utcOffset: string
}
export interface CountryInfo {
  code: string
  name: string
}

/**
 * The unit names products, presets and packages use (their enums: any letter case or the number
 * on the way in, these names on the way out), in their enum order.
 */
export const WEIGHT_UNITS = ['G', 'Kg', 'Lb', 'Oz'] as const
export const DIMENSION_UNITS = ['Mm', 'Cm', 'M', 'In', 'Ft'] as const
export const VOLUME_UNITS = ['m3', 'cm3', 'l', 'ml', 'ft3', 'in3'] as const

export const DEFAULTS = {
  currency: 'USD',
  timezone: 'UTC',
  country: null,
  weightUnit: 'Kg',
  dimensionUnit: 'Cm',
  dateFormat: 'yyyy-MM-dd',
} as const

/**
 * Region codes ICU can name that are not countries: groupings (EU, EZ, UN, QO), pseudo-locales
 * (XA, XB), unknown (ZZ), and codes reserved for other uses (AC, CP, CQ, DG, EA, IC, TA).
 */
const NOT_COUNTRIES = new Set([
  'EU',
  'EZ',
  'UN',
  'QO',
  'XA',
  'XB',
  'ZZ',
  'AC',
  'CP',
  'CQ',
  'DG',
  'EA',
  'IC',
  'TA',
])

const UTC = 'UTC'

function currencySymbol(code: string): string {
  const parts = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: code,
    currencyDisplay: 'narrowSymbol',
  })
  return parts.formatToParts(0).find((p) => p.type === 'currency')?.value ?? code
}

function buildCurrencies(): CurrencyInfo[] {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' })
  return Intl.supportedValuesOf('currency').map((code) => ({
    code,
    name: names.of(code) ?? code,
    symbol: currencySymbol(code),
    decimals:
      new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits ?? 2,
  }))
}

/** "GMT+02:00" -> "+02:00"; "GMT" -> "+00:00". */
function offsetOf(format: Intl.DateTimeFormat, at: Date): string {
  const name = format.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value
  const offset = name?.replace(/^GMT/, '') ?? ''
  return offset === '' ? '+00:00' : offset
}

function zoneIds(): string[] {
  const zones = Intl.supportedValuesOf('timeZone')
  return zones.includes(UTC) ? zones : [UTC, ...zones]
}

function buildCountries(): CountryInfo[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
  const countries: CountryInfo[] = []
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second)
      if (NOT_COUNTRIES.has(code)) continue
      // Deprecated codes (UK, BU, ZR, ...) canonicalise to their successor; keep only the successor.
      if (new Intl.Locale('und', { region: code }).region !== code) continue
      const name = names.of(code)
      if (name && name !== code) countries.push({ code, name })
    }
  }
  return countries.sort((a, b) => a.name.localeCompare(b.name, 'en'))
}

/** Offsets shift with daylight saving, so they are recomputed each quarter hour (transitions fall on one). */
const OFFSET_REFRESH_MS = 15 * 60_000

let currencies: CurrencyInfo[] | undefined
let currencyCodes: Set<string> | undefined
let zones: Map<string, string> | undefined
let countries: CountryInfo[] | undefined
// Building ~420 formatters takes a few hundred milliseconds: once per process.
let zoneFormats: { id: string; format: Intl.DateTimeFormat }[] | undefined
let timezones: { bucket: number; list: TimezoneInfo[] } | undefined

export const allCurrencies = (): CurrencyInfo[] => {
  currencies ??= buildCurrencies()
  return currencies
}

export const allCountries = (): CountryInfo[] => {
  countries ??= buildCountries()
  return countries
}

/** Every IANA zone with its offset from UTC now (as of the current quarter hour). */
export function allTimezones(now = Date.now()): TimezoneInfo[] {
  const bucket = Math.floor(now / OFFSET_REFRESH_MS)
  if (timezones?.bucket === bucket) return timezones.list
  zoneFormats ??= zoneIds().map((id) => ({
    id,
    format: new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: 'longOffset' }),
  }))
  const at = new Date(bucket * OFFSET_REFRESH_MS)
  timezones = { bucket, list: zoneFormats.map(({ id, format }) => ({ id, utcOffset: offsetOf(format, at) })) }
  return timezones.list
}

/** An ISO 4217 code in any letter case, as its upper-case code; undefined if Intl does not know it. */
export function normaliseCurrency(value: string): string | undefined {
  currencyCodes ??= new Set(Intl.supportedValuesOf('currency'))
  const code = value.trim().toUpperCase()
  return currencyCodes.has(code) ? code : undefined
}

/**
 * An IANA zone name in any letter case, as Intl lists it. An IANA link ("Asia/Kolkata",
 * "Etc/UTC") is accepted as the zone it resolves to; abbreviations such as "EST" are not.
 */
export function normaliseTimezone(value: string): string | undefined {
  zones ??= new Map(zoneIds().map((id) => [id.toLowerCase(), id]))
  const trimmed = value.trim()
  const listed = zones.get(trimmed.toLowerCase())
  if (listed) return listed
  if (!trimmed.includes('/')) return undefined
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: trimmed }).resolvedOptions().timeZone
    return zones.get(resolved.toLowerCase())
  } catch {
    return undefined
  }
}

/** The whole BusinessDefaultSettings payload. */
export function businessDefaultSettings() {
  return {
    currencies: allCurrencies(),
    timezones: allTimezones(),
    countries: allCountries(),
    units: { weight: [...WEIGHT_UNITS], dimension: [...DIMENSION_UNITS], volume: [...VOLUME_UNITS] },
    defaults: { ...DEFAULTS },
  }
}
