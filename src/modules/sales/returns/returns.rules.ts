import type { Reason } from '../../../errors.js'

/** Quantities are exact to 4 decimal places: worked in ten-thousandths, as integers. */
const units = (value: number | string) => Math.round(Number(value) * 10_000)
const fromUnits = (value: number) => value / 10_000

/** A delivered shipment line of a product: what it carried and what returns already take of it. */
export interface Deliverable {
  id: string
  product_id: string
  quantity: string
  returned: string
}

export interface RequestedLine {
  productId: string
  quantity: number
}

/** One shipment line's part of a requested line. */
export interface Allocation<D extends Deliverable> {
  /** the requested line's index */
  index: number
  line: D
  quantity: number
}

/** Checks of the lines that need no database: at most 4 decimals, each product once. */
export function lineReasons(lines: readonly RequestedLine[]): Reason[] {
  const reasons: Reason[] = []
  const seen = new Set<string>()
  lines.forEach((line, index) => {
    // What numeric(18, 4) stores as sent.
    if (Number(line.quantity.toFixed(4)) !== line.quantity)
      reasons.push({ field: `lines.${index}.quantity`, message: 'must have at most 4 decimal places' })
    const product = line.productId.toLowerCase()
    if (seen.has(product))
      reasons.push({ field: `lines.${index}.productId`, message: 'appears more than once' })
    seen.add(product)
  })
  return reasons
}

/**
 * Takes each requested line from the delivered lines of its product, oldest first, each at most
 * what it carried less what is already returned. A product not of the business, not delivered
 * from the source, or asked for beyond what is left is a reason naming the line's field.
 */
export function allocate<D extends Deliverable>(
  lines: readonly RequestedLine[],
  products: ReadonlySet<string>,
  delivered: readonly D[],
  from: string,
): { allocations: Allocation<D>[]; reasons: Reason[] } {
  const reasons: Reason[] = []
  const allocations: Allocation<D>[] = []
  lines.forEach((line, index) => {
    const productId = line.productId.toLowerCase()
    if (!products.has(productId)) {
      reasons.push({ field: `lines.${index}.productId`, message: 'must be a product of this business' })
      return
    }
    const candidates = delivered.filter((d) => d.product_id === productId)
    if (candidates.length === 0) {
      reasons.push({ field: `lines.${index}.productId`, message: `was not delivered ${from}` })
      return
    }
    const left = (d: D) => Math.max(0, units(d.quantity) - units(d.returned))
    const shipped = candidates.reduce((sum, d) => sum + units(d.quantity), 0)
    const available = candidates.reduce((sum, d) => sum + left(d), 0)
    let wanted = units(line.quantity)
    if (wanted > available) {
      reasons.push({
        field: `lines.${index}.quantity`,
        message: `at most ${fromUnits(available)} can be returned (${fromUnits(shipped)} delivered, ${fromUnits(shipped - available)} returned already)`,
      })
      return
    }
    for (const candidate of candidates) {
      const take = Math.min(wanted, left(candidate))
      if (take <= 0) continue
      allocations.push({ index, line: candidate, quantity: fromUnits(take) })
      wanted -= take
      if (wanted === 0) break
    }
  })
  return { allocations, reasons }
}
