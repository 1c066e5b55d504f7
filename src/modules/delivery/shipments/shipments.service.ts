import type { Transaction } from 'kysely'
import type { Database } from '../../../db/database.js'
import { newId } from '../../../db/ids.js'
import { nextCode } from '../../../db/sequences.js'
import type { Executor, Tables } from '../../../db/tables.js'
import { invalidField } from '../../../errors.js'
import { businessDateProblem } from '../../../http/business-dates.js'
import { type MessageEntry, paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import type { Geocoder } from '../../geo/index.js'
import { lockPresetForReference, presetNotFound } from '../../manufacturing/index.js'
import { readSetting } from '../../organisation/index.js'
import { refreshDerivedLoad } from '../shipment-lines/index.js'
import { checkedWindows } from './delivery-windows.js'
import { type ShipmentAddresses, shipmentAddresses } from './shipment-addresses.js'
import { shipmentNotEditable, shipmentNotFound } from './shipments.errors.js'
import { toShipment } from './shipments.mapper.js'
import * as repository from './shipments.repository.js'
import { SHIPMENT_STATUSES, type ShipmentRequest, type ShipmentResponse } from './shipments.schemas.js'

export const SHIPMENT_FIELDS = {
  code: { column: 's.code', type: 'string' },
  status: { column: 's.status', type: 'enum', enumValues: SHIPMENT_STATUSES },
  orderId: { column: 's.order_id', type: 'uuid' },
  customerId: { column: 's.customer_id', type: 'uuid' },
  deliveryPlanId: { column: 's.delivery_plan_id', type: 'uuid' },
  weight: { column: 's.weight', type: 'number' },
  scheduledDate: { column: 's.scheduled_date', type: 'datetime' },
  dateCreated: { column: 's.date_created', type: 'datetime' },
  dateModified: { column: 's.date_modified', type: 'datetime' },
} as const

export const SHIPMENT_LIST: ListSpec = {
  fields: SHIPMENT_FIELDS,
  search: ['s.code', 's.notes'],
  defaultOrder: [{ column: 's.date_created', direction: 'desc' }],
  tiebreak: 's.id',
}

export async function listShipments(database: Database, auth: BusinessAuth, query: ListQuery) {
  const scoped = repository.scopedShipments(database.db, auth.schemaName, auth.businessId)
  const { rows, total, page } = await runList(scoped, query, SHIPMENT_LIST)
  return paged('core', rows.map(toShipment), total, page)
}

export async function loadShipment(db: Executor, auth: BusinessAuth, id: string): Promise<ShipmentResponse> {
  const row = await repository.findShipment(db, auth.schemaName, auth.businessId, id)
  if (!row) throw shipmentNotFound()
  return toShipment(row)
}

export const getShipment = (database: Database, auth: BusinessAuth, id: string) =>
  loadShipment(database.db, auth, id)

/**
 * Checks the references (400 naming the field; 404 naming dimensionPresetId) and takes the customer from the order; the
 * addresses come settled (shipment-addresses.ts).
 */
async function valuesOf(
  db: Executor,
  auth: BusinessAuth,
  request: ShipmentRequest,
  { order, delivery, pickup }: ShipmentAddresses,
): Promise<repository.ShipmentValues> {
  const { schemaName: schema, businessId } = auth
  const scheduled = request.scheduledDate ? new Date(request.scheduledDate) : null
  const dateProblem = scheduled && businessDateProblem(scheduled)
  if (dateProblem) throw invalidField('scheduledDate', dateProblem)
  if (request.orderId && !order) throw invalidField('orderId', 'must be an order of this business')
  const customerId = request.customerId ?? order?.customer_id ?? null
  if (customerId && !(await repository.liveCustomerExists(db, schema, businessId, customerId)))
    throw invalidField('customerId', 'must be a customer of this business that is not deleted')
  // Presets belong to one business (as the dimensions routes do): another business's is not found.
  const presetId = request.dimensionPresetId ?? null
  if (presetId && !(await lockPresetForReference(db, schema, businessId, presetId)))
    throw presetNotFound('dimensionPresetId')
  return {
    order_id: order?.id ?? null,
    customer_id: customerId,
    pickup_address: pickup ? JSON.stringify(pickup) : null,
    delivery_address: delivery ? JSON.stringify(delivery) : null,
    weight: request.weight ?? null,
    volume: request.volume ?? null,
    weight_derived: request.weight == null,
    volume_derived: request.volume == null,
    dimension_preset_id: presetId,
    scheduled_date: scheduled,
    notes: request.notes?.trim() || null,
    delivery_windows: JSON.stringify(checkedWindows(request.deliveryWindows)),
    service_minutes: request.serviceMinutes ?? null,
  }
}

/** The shipment, and message entries saying where its address came from and whether it was located. */
export interface SavedShipment {
  shipment: ShipmentResponse
  messages: MessageEntry[]
}

/**
 * Creates a Pending shipment in the caller's transaction, under the next code of the
 * `shipments.codePrefix` setting, from the request and its addresses as settled by
 * `shipmentAddresses` (400 naming orderId or customerId when they are not the business's).
 */
export async function createShipmentIn(
  trx: Transaction<Tables>,
  auth: BusinessAuth,
  request: ShipmentRequest,
  addresses: ShipmentAddresses,
): Promise<ShipmentResponse> {
  const { schemaName: schema, businessId } = auth
  const values = await valuesOf(trx, auth, request, addresses)
  const prefix = await readSetting(trx, schema, businessId, 'shipments.codePrefix')
  const id = newId()
  const code = await nextCode(trx, schema, businessId, 'shipment', prefix)
  await repository.insertShipment(trx, schema, { ...values, id, business_id: businessId, code })
  await refreshDerivedLoad(trx, schema, [id])
  return loadShipment(trx, auth, id)
}

export async function createShipment(
  database: Database,
  auth: BusinessAuth,
  request: ShipmentRequest,
  geocoder: Geocoder | undefined,
): Promise<SavedShipment> {
  const addresses = await shipmentAddresses(database.db, auth, request, geocoder)
  const shipment = await database.db
    .transaction()
    .execute((trx) => createShipmentIn(trx, auth, request, addresses))
  return { shipment, messages: addresses.messages }
}

export async function updateShipment(
  database: Database,
  auth: BusinessAuth,
  id: string,
  request: ShipmentRequest,
  geocoder: Geocoder | undefined,
): Promise<SavedShipment> {
  const { schemaName: schema, businessId } = auth
  const addresses = await shipmentAddresses(database.db, auth, request, geocoder)
  const shipment = await database.db.transaction().execute(async (trx) => {
    const values = await valuesOf(trx, auth, request, addresses)
    const updated = await repository.updatePending(trx, schema, businessId, id, values)
    if (!updated) {
      const status = await repository.statusOf(trx, schema, businessId, id)
      if (!status) throw shipmentNotFound()
      throw shipmentNotEditable(status)
    }
    await refreshDerivedLoad(trx, schema, [id])
    return loadShipment(trx, auth, id)
  })
  return { shipment, messages: addresses.messages }
}

export async function deleteShipment(database: Database, auth: BusinessAuth, id: string) {
  const { schemaName: schema, businessId } = auth
  const deleted = await repository.deletePending(database.db, schema, businessId, id)
  if (deleted) return true
  const status = await repository.statusOf(database.db, schema, businessId, id)
  if (!status) throw shipmentNotFound()
  throw shipmentNotEditable(status)
}
