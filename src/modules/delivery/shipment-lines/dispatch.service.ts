import type { Transaction } from 'kysely'
import type { Tables } from '../../../db/tables.js'
import { conflict } from '../../../errors.js'
import type { DomainEventPublisher } from '../../../platform/domain-events.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import {
  entryValuesOfMany,
  lockProducts,
  type Movement,
  postingScopeOf,
  postProductMovements,
} from '../../manufacturing/index.js'
import { lockOrdersToShip, recordShipped } from '../../sales/index.js'
import * as repository from './shipment-lines.repository.js'

/**
 * Issues the lines of shipments a plan has just dispatched, in the dispatch's transaction: orders
 * locked first, then products (both in id order), one `Sale` entry per line at the moving average
 * (reference: the shipment's code), a shortfall at any point in time refusing the whole dispatch
 * (409 stock_shortfall naming `<shipment code>.lines.<index>.quantity`). Then the order lines'
 * reservations are consumed and their orders move to PartiallyFulfilled or Fulfilled, and each
 * shipment's ShipmentDispatched is published with what it carries.
 */
export async function issueDispatchedLines(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  events: DomainEventPublisher,
  deliveryPlanId: string | null,
  at: Date,
  dispatched: readonly { id: string; code: string }[],
) {
  const lines = await repository.linesToIssue(
    trx,
    auth.schemaName,
    dispatched.map((s) => s.id),
  )
  const shipped = lines.flatMap((l) =>
    l.order_line_id ? [{ orderLineId: l.order_line_id, quantity: l.quantity }] : [],
  )
  await lockOrdersToShip(trx, auth, shipped)
  const products = new Map(
    (
      await lockProducts(trx, auth.schemaName, auth.businessId, [...new Set(lines.map((l) => l.product_id))])
    ).map((p) => [p.id, p]),
  )
  const archived = lines.find((l) => products.get(l.product_id)?.archived_at)
  if (archived)
    throw conflict(
      'product_archived',
      `Shipment ${archived.code} line ${archived.line_number} is of an archived product, which takes no stock movements.`,
    )
  const scope = postingScopeOf(events, auth)
  const movement = (l: (typeof lines)[number]): Movement => ({
    type: 'Sale',
    quantity: -Number(l.quantity),
    receivedCost: null,
    effectiveDate: at,
    reason: null,
    reference: l.code,
    workOrderId: null,
  })
  const { entryIds } =
    lines.length === 0
      ? { entryIds: [] as string[] }
      : await postProductMovements(
          trx,
          scope,
          lines.map((l) => ({ product: products.get(l.product_id)!, movement: movement(l) })),
          (index) => `${lines[index]!.code}.lines.${lines[index]!.line_number - 1}`,
        )
  // The exact cost each line left with, for all products in one statement.
  const values = await entryValuesOfMany(
    trx,
    auth.schemaName,
    lines.map((l, i) => ({ productId: l.product_id, entryId: entryIds[i]! })),
  )
  const issued = lines.map((l, i) => ({
    id: l.id,
    entryId: entryIds[i]!,
    unitCost: values.get(entryIds[i]!)?.unit_cost ?? '0',
  }))
  await repository.setIssued(trx, auth.schemaName, issued)
  await recordShipped(trx, auth, events, shipped)
  const byShipment = new Map<string, { line: (typeof lines)[number]; unitCost: string }[]>()
  for (const [i, line] of lines.entries()) {
    const carried = byShipment.get(line.shipment_id) ?? []
    carried.push({ line, unitCost: issued[i]!.unitCost })
    byShipment.set(line.shipment_id, carried)
  }
  await events.publishAll(
    trx,
    auth.schemaName,
    dispatched.map((shipment) => {
      const carried = byShipment.get(shipment.id) ?? []
      return {
        type: 'ShipmentDispatched' as const,
        businessId: auth.businessId,
        userId: auth.userId,
        payload: {
          shipmentId: shipment.id,
          code: shipment.code,
          deliveryPlanId,
          orderId: carried[0]?.line.order_id ?? null,
          lines: carried.map(({ line, unitCost }) => ({
            productId: line.product_id,
            quantity: Number(line.quantity),
            unitCost: Number(unitCost),
          })),
        },
      }
    }),
  )
}

/**
 * Puts the goods of a shipment cancelled after dispatch back into stock, in the cancel's
 * transaction: one `SaleReturn` per issued line at the exact cost it left with, effective now.
 */
export async function returnShipmentGoods(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  events: DomainEventPublisher,
  shipment: { id: string; code: string },
) {
  const lines = await repository.linesToReturn(trx, auth.schemaName, shipment.id)
  if (lines.length === 0) return
  const products = new Map(
    (
      await lockProducts(trx, auth.schemaName, auth.businessId, [...new Set(lines.map((l) => l.product_id))])
    ).map((p) => [p.id, p]),
  )
  const at = new Date()
  const { entryIds } = await postProductMovements(
    trx,
    postingScopeOf(events, auth),
    lines.map((l) => ({
      product: products.get(l.product_id)!,
      movement: {
        type: 'SaleReturn',
        quantity: Number(l.quantity),
        receivedCost: Number(l.unit_cost ?? 0),
        effectiveDate: at,
        reason: 'Shipment cancelled after dispatch',
        reference: shipment.code,
        workOrderId: null,
      },
    })),
    (index) => `lines.${index}`,
  )
  await repository.setReturned(
    trx,
    auth.schemaName,
    lines.map((l, i) => ({ id: l.id, entryId: entryIds[i]! })),
  )
}
