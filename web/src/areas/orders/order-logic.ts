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
