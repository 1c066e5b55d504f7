import { problemsOf } from '../../lib/form-errors'

export type OrderMove = 'confirm' | 'fulfill' | 'cancel'

/**
 * The moves an order's state allows: Draft -> Confirmed (reserving stock) or Cancelled; Confirmed
 * -> Fulfilled or Cancelled; PartiallyFulfilled (some shipped) -> Fulfilled. The server decides;
 * the console offers only these.
 */
export function orderMoves(status: string): OrderMove[] {
  switch (status) {
    case 'Draft':
      return ['confirm', 'cancel']
    case 'Confirmed':
      return ['fulfill', 'cancel']
    case 'PartiallyFulfilled':
      return ['fulfill']
    default:
      return []
  }
}

/**
 * What the server said about each order line, by line number: a refused confirmation (409
 * `insufficient_stock`) names `lines.<index>.quantity` ("short by 3 (2 available)"), the index
 * counting from 0 in line order.
 */
export function lineProblems(error: unknown): Map<number, string> {
  const problems = problemsOf(error)
  const found = new Map<number, string>()
  for (const [field, message] of Object.entries(problems)) {
    const match = /^lines\.(\d+)$/.exec(field)
    if (match) found.set(Number(match[1]) + 1, message)
  }
  return found
}

/** One line of the order form as typed. */
export interface LineDraft {
  key: number
  productId: string
  /** What the product picker shows (SKU and name once chosen). */
  productText: string
  description: string
  quantity: string
  unitPrice: string
}

/**
 * What the form itself refuses before asking (the rest, such as more than 4 decimals or a
 * product archived meanwhile, is the API's to say): a line needs a product or a description, a
 * number for its quantity and its price. Keys are the API's own field names.
 */
export function draftLineProblems(lines: readonly LineDraft[]): Record<string, string> {
  const found: Record<string, string> = {}
  lines.forEach((line, index) => {
    if (!line.productId && !line.description.trim()) {
      found[`lines.${index}.productId`] = line.productText.trim()
        ? 'Choose the product from the suggestions.'
        : 'Choose a product or write a description.'
    }
    if (line.quantity.trim() === '' || !Number.isFinite(Number(line.quantity)))
      found[`lines.${index}.quantity`] = 'A number, more than 0.'
    if (line.unitPrice.trim() === '' || !Number.isFinite(Number(line.unitPrice)))
      found[`lines.${index}.unitPrice`] = 'A price: 0 or more.'
  })
  return found
}

/** The lines as the API takes them, in the form's order. */
export function orderLinesBody(lines: readonly LineDraft[]) {
  return lines.map((line) => ({
    productId: line.productId || null,
    description: line.description.trim() || null,
    quantity: Number(line.quantity),
    unitPrice: Number(line.unitPrice),
  }))
}

/**
 * A day of the date input as the order's instant: noon UTC, which is that same calendar day in
 * every time zone from UTC-11 to UTC+11 (the business's day is what lists and documents show).
 */
export const orderDay = (day: string) => `${day}T12:00:00.000Z`
