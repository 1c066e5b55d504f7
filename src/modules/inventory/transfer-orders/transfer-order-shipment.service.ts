import { readAddress } from '../../../http/address.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import {
  createShipmentIn,
  putShipmentOnPlan,
  type ShipmentRequest,
  shipmentAddresses,
} from '../../delivery/index.js'
import { geocoderFor } from '../../geo/index.js'
import {
  transferHasShipment,
  transferNotShippable,
  transferOrderNotFound,
  wrongSide,
} from './transfer-orders.errors.js'
import * as repository from './transfer-orders.repository.js'
import type { TransferOrderResponse, TransferShipmentRequest } from './transfer-orders.schemas.js'
import { loadTransferOrder } from './transfer-orders.service.js'

/**
 * The shipment that carries a transfer: created by the source business, from its address to the
 * destination business's, linked to the transfer and, with deliveryPlanId, put on that plan, all
 * in one transaction. Addresses are settled (and located) before it, as the delivery area asks.
 */
export async function createTransferShipment(
  { config, database }: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: TransferShipmentRequest,
): Promise<TransferOrderResponse> {
  const { schemaName: schema } = auth
  const order = await repository.findTransferOrder(database.db, schema, auth.businessId, id)
  if (!order) throw transferOrderNotFound()
  if (order.source_business_id !== auth.businessId) throw wrongSide('create a shipment for', 'source')
  const addresses = await repository.businessAddresses(database.db, schema, [
    order.source_business_id,
    order.destination_business_id,
  ])
  const shipment: ShipmentRequest = {
    pickupAddress: readAddress(addresses.get(order.source_business_id) ?? null),
    deliveryAddress: readAddress(addresses.get(order.destination_business_id) ?? null),
    weight: request.weight ?? null,
    volume: request.volume ?? null,
    scheduledDate: request.scheduledDate ?? null,
    notes: `Transfer ${order.number}`,
  }
  const settled = await shipmentAddresses(database.db, auth, shipment, geocoderFor(config))
  return database.db.transaction().execute(async (trx) => {
    const locked = await repository.lockTransferOrder(trx, schema, auth.businessId, id)
    if (!locked) throw transferOrderNotFound()
    if (locked.shipment_id !== null) throw transferHasShipment()
    if (locked.status !== 'Draft' && locked.status !== 'Shipped') throw transferNotShippable(locked.status)
    const created = await createShipmentIn(trx, auth, shipment, settled)
    await repository.linkShipment(trx, schema, id, created.id)
    if (request.deliveryPlanId) await putShipmentOnPlan(trx, auth, request.deliveryPlanId, created.id)
    return loadTransferOrder(trx, auth, id)
  })
}
