import { problemsOf } from '../../lib/form-errors'

export type ReturnMove = 'receive' | 'writeOff' | 'cancel'

/** Requested -> Received, WrittenOff or Cancelled; nothing moves after. */
export function returnMoves(status: string): ReturnMove[] {
  return status === 'Requested' ? ['receive', 'writeOff', 'cancel'] : []
}

export interface DeliveredLine {
  productId: string
  sku: string
  name: string
  quantity: number
}

export interface ReturnableProduct {
  productId: string
  sku: string
  name: string
  /** What the shipment delivered of it, over all its lines. */
  delivered: number
}

/** The products a delivered shipment carried, one row each, in the order they first appear. */
export function returnableProducts(lines: readonly DeliveredLine[]): ReturnableProduct[] {
  const byProduct = new Map<string, ReturnableProduct>()
  for (const line of lines) {
    const found = byProduct.get(line.productId)
    if (found) found.delivered += line.quantity
    else
      byProduct.set(line.productId, {
        productId: line.productId,
        sku: line.sku,
        name: line.name,
        delivered: line.quantity,
      })
  }
  return [...byProduct.values()]
}

export interface ReturnDraft {
  lines: { productId: string; quantity: number }[]
  /** Problems found before sending, by product id. */
  problems: Record<string, string>
}

/**
 * The lines of a return from the quantities typed per product: empty or 0 leaves a product out;
 * anything else must be a number above 0 with at most 4 decimals, and at least one line is needed
 * (its problem is filed under `lines`).
 */
export function returnDraft(
  products: readonly ReturnableProduct[],
  typed: Readonly<Record<string, string>>,
): ReturnDraft {
  const lines: ReturnDraft['lines'] = []
  const problems: Record<string, string> = {}
  for (const product of products) {
    const text = (typed[product.productId] ?? '').trim()
    if (text === '' || Number(text) === 0) continue
    const value = Number(text)
    if (!Number.isFinite(value) || value < 0) problems[product.productId] = 'A quantity above 0.'
    else if (!/^\d+(\.\d{1,4})?$/.test(text)) problems[product.productId] = 'At most 4 decimals.'
    else lines.push({ productId: product.productId, quantity: value })
  }
  if (lines.length === 0 && Object.keys(problems).length === 0)
    problems.lines = 'Enter the quantity coming back of at least one product.'
  return { lines, problems }
}

/**
 * The server's reasons for a return's lines (`lines.<n>.quantity`, `lines.<n>.productId`, n
 * counting the lines sent) filed under the product each line named.
 */
export function problemsByProduct(
  error: unknown,
  sent: readonly { productId: string }[],
): Record<string, string> {
  const problems = problemsOf(error)
  const found: Record<string, string> = {}
  for (const [index, line] of sent.entries()) {
    const message = problems[`lines.${index}`]
    if (message) found[line.productId] = message
  }
  return found
}
