import type { Executor } from '../../../db/tables.js'
import type { Reason } from '../../../errors.js'
import { validationFailed } from '../../../errors.js'
import { decimalReasons } from '../decimals.js'
import { cycle, productNotUsable } from './boms.errors.js'
import { findCycle, type LineValues, usableProducts } from './boms.repository.js'
import type { BomLineInput } from './boms.schemas.js'

/**
 * Checks lines for a BOM of `rootProductId` and returns them ready to store: decimals, products
 * usable on a BOM (400 naming `<prefix>productId`), and no cycle through sub-assemblies (400
 * bom_cycle naming the path of SKUs).
 */
export async function checkLines(
  db: Executor,
  scope: { schemaName: string; businessId: string },
  rootProductId: string,
  lines: readonly BomLineInput[],
  prefixOf: (index: number) => string,
): Promise<LineValues[]> {
  const reasons: Reason[] = []
  lines.forEach((line, i) => {
    reasons.push(
      ...decimalReasons({ quantity: line.quantity, scrapPercent: line.scrapPercent }, 4, prefixOf(i)),
    )
  })
  const usable = await usableProducts(
    db,
    scope.schemaName,
    scope.businessId,
    lines.map((l) => l.productId),
  )
  lines.forEach((line, i) => {
    if (!usable.has(line.productId)) reasons.push(...productNotUsable(`${prefixOf(i)}productId`).reasons)
  })
  if (reasons.length > 0) throw validationFailed(reasons)
  for (const [i, line] of lines.entries()) {
    const path = await findCycle(db, scope.schemaName, rootProductId, [line.productId])
    if (path) throw cycle(`${prefixOf(i)}productId`, path)
  }
  return lines.map((line) => ({
    product_id: line.productId,
    quantity: line.quantity,
    scrap_percent: line.scrapPercent ?? 0,
    notes: line.notes?.trim() || null,
  }))
}
