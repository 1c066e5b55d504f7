import type { Reason } from '../../../errors.js'
import type { LineValues } from './orders.repository.js'
import type { OrderLineInput } from './orders.schemas.js'

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

/** numeric(18,4) holds at most 99999999999999.9999; in units of 0.0001 that is 10^18 - 1. */
const MAX_STORED = 10n ** 18n - 1n
const SCALE = 10_000n

/** True when `value` has at most 4 decimal places (what numeric(18,4) stores without rounding). */
const fourDecimals = (value: number) => Number(value.toFixed(4)) === value

/** An amount with at most 4 decimals as an exact integer count of 0.0001 units. */
const units = (value: number) => BigInt(value.toFixed(4).replace('.', ''))

/** ISO 4217 code in upper case, or undefined when unknown. */
export function currencyCode(value: string): string | undefined {
  const code = value.toUpperCase()
  return CURRENCIES.has(code) ? code : undefined
}

/**
 * Checks what the schema cannot: decimals, product-or-description, and that the line and order
 * totals fit the stored precision (exactly, as PostgreSQL will compute them, so no insert can fail).
 * Returns the lines ready to store, or one reason per invalid field.
 */
export function checkLines(lines: readonly OrderLineInput[]): { lines: LineValues[]; reasons: Reason[] } {
  const reasons: Reason[] = []
  const values: LineValues[] = []
  let total = 0n
  lines.forEach((line, index) => {
    const at = `lines.${index}`
    const description = line.description?.trim() || null
    const productId = line.productId ?? null
    if (!productId && !description) reasons.push({ field: at, message: 'needs a productId or a description' })
    if (!fourDecimals(line.quantity)) {
      reasons.push({ field: `${at}.quantity`, message: 'must have at most 4 decimal places' })
    }
    if (!fourDecimals(line.unitPrice)) {
      reasons.push({ field: `${at}.unitPrice`, message: 'must have at most 4 decimal places' })
    }
    // Rounded half away from zero to 4 places, like the generated line_total column.
    const lineTotal = (units(line.quantity) * units(line.unitPrice) + SCALE / 2n) / SCALE
    if (lineTotal > MAX_STORED) {
      reasons.push({ field: at, message: 'quantity × unitPrice must be less than 100000000000000' })
    }
    total += lineTotal
    values.push({
      product_id: productId,
      description,
      quantity: String(line.quantity),
      unit_price: String(line.unitPrice),
    })
  })
  if (total > MAX_STORED && !reasons.some((r) => r.message.startsWith('quantity ×'))) {
    reasons.push({ field: 'lines', message: 'the order total must be less than 100000000000000' })
  }
  return { lines: values, reasons }
}
