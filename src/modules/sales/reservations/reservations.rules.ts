/** Quantities are numeric(18,4): rounded to 4 places after each step so sums stay exact. */
export const round4 = (value: number) => Math.round(value * 10_000) / 10_000

export interface LineToReserve {
  lineId: string
  lineNumber: number
  productId: string
  quantity: number
}

export interface Allocation extends LineToReserve {
  reserved: number
  short: number
}

/**
 * Reserves lines in line order against what each product has available (two lines of one product
 * share it): each takes what it can, the rest is short.
 */
export function allocate(
  lines: readonly LineToReserve[],
  available: ReadonlyMap<string, number>,
): Allocation[] {
  const left = new Map(available)
  return lines.map((line) => {
    const free = Math.max(left.get(line.productId) ?? 0, 0)
    const reserved = round4(Math.min(free, line.quantity))
    left.set(line.productId, round4(free - reserved))
    return { ...line, reserved, short: round4(line.quantity - reserved) }
  })
}

export interface Incoming {
  date: string | null
  quantity: number
}

/**
 * The earliest day (yyyy-mm-dd) `quantity` can be promised: today when what is free now covers it,
 * else the day the dated incoming stock (earliest first) brings the free quantity up to it; null
 * when even all of it does not. Undated incoming stock promises nothing.
 */
export function earliestPromise(
  free: number,
  incoming: readonly Incoming[],
  quantity: number,
  today: string,
): string | null {
  let running = free
  if (running >= quantity) return today
  const dated = incoming
    .filter((i): i is Incoming & { date: string } => i.date !== null)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  for (const item of dated) {
    running = round4(running + item.quantity)
    if (running >= quantity) return item.date < today ? today : item.date
  }
  return null
}
