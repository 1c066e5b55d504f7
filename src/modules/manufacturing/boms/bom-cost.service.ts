import type { Database } from '../../../db/database.js'
import type { Executor } from '../../../db/tables.js'
import { type MessageEntry, messageEntry } from '../../../http/envelopes.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { asOfInstant } from '../as-of.js'
import { round } from '../decimals.js'
import { type CostNodeRow, costTree, findBomHeader } from './bom-cost.repository.js'
import { bomNotFound } from './boms.errors.js'
import type { BomCostBreakdownResponse, BomCostLine, CostSource } from './boms.schemas.js'

interface Node {
  row: CostNodeRow
  children: Node[]
  effectiveQuantity: number
  unitCost: number
  source: CostSource
  subTotal: number | null
  /** This line has no cost, or (a sub-assembly) a line beneath it has none. */
  missing: boolean
}

/** Rolls a node's cost up from its children (sub-assembly) or takes it from the ledger / standard cost. */
function rollUp(node: Node): number {
  const { row } = node
  node.effectiveQuantity = Number(row.quantity) * (1 + Number(row.scrap_percent) / 100)
  if (row.sub_bom_id !== null) {
    node.subTotal = node.children.reduce((sum, child) => sum + rollUp(child), 0)
    node.unitCost = node.subTotal / Number(row.sub_output)
    node.source = 'SubAssembly'
    node.missing = node.children.some((child) => child.missing)
  } else if (row.ledger_cost !== null) {
    node.unitCost = Number(row.ledger_cost)
    node.source = 'Ledger'
  } else if (row.standard_cost !== null) {
    node.unitCost = Number(row.standard_cost)
    node.source = 'StandardCost'
  } else {
    node.unitCost = 0
    node.source = 'None'
    node.missing = true
  }
  return node.effectiveQuantity * node.unitCost
}

function flatten(nodes: readonly Node[], out: BomCostLine[]): BomCostLine[] {
  for (const node of nodes) {
    const { row } = node
    out.push({
      lineItemId: row.id,
      parentLineItemId: row.parent_id,
      depth: row.depth,
      productId: row.product_id,
      sku: row.sku,
      name: row.name,
      quantity: Number(row.quantity),
      scrapPercent: Number(row.scrap_percent),
      effectiveQuantity: round(node.effectiveQuantity),
      unitCost: round(node.unitCost),
      extendedCost: round(node.effectiveQuantity * node.unitCost),
      costSource: node.source,
      costMissing: node.missing,
      subAssembly:
        row.sub_bom_id === null
          ? null
          : {
              bomId: row.sub_bom_id,
              code: row.sub_code ?? '',
              revision: row.sub_revision ?? 1,
              outputQuantity: Number(row.sub_output),
              totalCost: round(node.subTotal ?? 0),
              unitCost: round(node.unitCost),
            },
    })
    flatten(node.children, out)
  }
  return out
}

/** The cost of a BOM as of an instant: the tree from one recursive query, rolled up bottom-up. */
export async function costBom(
  db: Executor,
  auth: { schemaName: string; businessId: string },
  bomId: string,
  asOf: Date,
): Promise<BomCostBreakdownResponse> {
  const [bom, rows] = await Promise.all([
    findBomHeader(db, auth.schemaName, auth.businessId, bomId),
    costTree(db, auth.schemaName, bomId, asOf),
  ])
  if (!bom) throw bomNotFound()
  const byId = new Map<string, Node>()
  const top: Node[] = []
  for (const row of rows) {
    const node: Node = {
      row,
      children: [],
      effectiveQuantity: 0,
      unitCost: 0,
      source: 'None',
      subTotal: null,
      missing: false,
    }
    byId.set(row.node_key, node)
    if (row.depth === 1) top.push(node)
    else byId.get(row.parent_key)?.children.push(node)
  }
  const total = top.reduce((sum, node) => sum + rollUp(node), 0)
  const outputQuantity = Number(bom.output_quantity)
  return {
    bomId,
    code: bom.code,
    revision: bom.revision,
    productId: bom.product_id,
    asOfDate: asOf.toISOString(),
    outputQuantity,
    totalCost: round(total),
    unitCost: round(total / outputQuantity),
    lineItems: flatten(top, []),
    costMissing: top.some((node) => node.missing),
  }
}

/**
 * The answer's message entries: one warning per product that has no cost at the date (no ledger
 * entry by then, no standard cost) and was costed at 0, naming how many lines it is on.
 */
function missingCostMessages(cost: BomCostBreakdownResponse): MessageEntry[] {
  const byProduct = new Map<string, { sku: string; name: string; lines: number }>()
  for (const line of cost.lineItems) {
    if (line.costSource !== 'None') continue
    const seen = byProduct.get(line.productId) ?? { sku: line.sku, name: line.name, lines: 0 }
    seen.lines += 1
    byProduct.set(line.productId, seen)
  }
  return [...byProduct.values()].map(({ sku, name, lines }) =>
    messageEntry(
      'Warning',
      'cost_missing',
      'No cost for a component',
      `${name} (${sku}) has no cost as of ${cost.asOfDate}: no stock ledger entry by then and no standard cost (unitCost). ` +
        `${lines === 1 ? 'Its line is' : `Its ${lines} lines are`} costed at 0, so the BOM's cost is understated.`,
    ),
  )
}

/** GET /api/v1/bom/{bomId}/cost: the cost as of the asOfDate, and a warning per product without a cost. */
export async function getBomCost(
  database: Database,
  auth: BusinessAuth,
  bomId: string,
  asOfDate: string | undefined,
): Promise<{ cost: BomCostBreakdownResponse; messages: MessageEntry[] }> {
  const cost = await costBom(database.db, auth, bomId, await asOfInstant(database.db, auth, asOfDate))
  return { cost, messages: missingCostMessages(cost) }
}
