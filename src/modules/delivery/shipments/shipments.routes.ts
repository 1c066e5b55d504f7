import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { geocoderFor } from '../../geo/index.js'
import { moveShipment } from './shipment-status.service.js'
import {
  DeliverRequest,
  FailRequest,
  ShipmentParams,
  ShipmentRequest,
  ShipmentResponse,
} from './shipments.schemas.js'
import {
  createShipment,
  deleteShipment,
  getShipment,
  listShipments,
  updateShipment,
} from './shipments.service.js'

const TAGS = ['Shipments']
const ONE = SingleResult('core', ShipmentResponse)
const VIEW = ['Shipments', 'View'] as const
const MODIFY = ['Shipments', 'Modify'] as const

const MOVES = [
  { path: 'assign', to: 'Assigned', operationId: 'AssignShipment', summary: 'Pending -> Assigned' },
  { path: 'dispatch', to: 'InTransit', operationId: 'DispatchShipment', summary: 'Assigned -> InTransit' },
  { path: 'return', to: 'Returned', operationId: 'ReturnShipment', summary: 'Failed -> Returned' },
  {
    path: 'cancel',
    to: 'Cancelled',
    operationId: 'CancelShipment',
    summary: 'Pending, Assigned or InTransit -> Cancelled (what it carried goes back to stock)',
  },
] as const
const ADDRESS_RULES =
  "The delivery address is the one sent, else the order's, else the customer's shipping address. An address sent (or " +
  'taken) without latitude and longitude is located from its text with the address lookup (GET /api/Address/get-from-text: ' +
  'the configured geocoder, else the offline parser at city precision); only the coordinates are added. messages says ' +
  'what was done: shipment_address_from_customer, shipment_address_located (Info), shipment_address_not_located or ' +
  'shipment_without_delivery_address (Warning: autobatch leaves such a shipment out).'
const MOVE_NOTE = 'Stamps the move; any other move is a 409 invalid_status_transition.'

/** Shipments (M2): what a delivery plan carries, with a timestamped status machine. */
export function registerShipmentRoutes(app: HttpApp, deps: AppDeps) {
  const { database, config } = deps
  const geocoder = geocoderFor(config)
  app.get(
    '/api/v1/shipments',
    operation(VIEW, {
      operationId: 'GetShipments',
      summary: "The business's shipments",
      description:
        '$filter/$orderby over code, status, orderId, customerId, deliveryPlanId, weight, scheduledDate, dateCreated, dateModified; $search matches code and notes.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', ShipmentResponse),
      errors: [400],
    }),
    async (request) => listShipments(database, businessAuthOf(request), request.query),
  )
  app.post(
    '/api/v1/shipments',
    operation(MODIFY, {
      operationId: 'CreateShipment',
      summary: 'Create a Pending shipment, from an order or standalone',
      description: ADDRESS_RULES,
      tags: TAGS,
      body: ShipmentRequest,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) => {
      const saved = await createShipment(database, businessAuthOf(request), request.body, geocoder)
      return single('core', saved.shipment, saved.messages)
    },
  )
  app.get(
    '/api/v1/shipments/:shipmentId',
    operation(VIEW, {
      operationId: 'GetShipment',
      summary: 'One shipment',
      tags: TAGS,
      params: ShipmentParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getShipment(database, businessAuthOf(request), request.params.shipmentId)),
  )
  app.put(
    '/api/v1/shipments/:shipmentId',
    operation(MODIFY, {
      operationId: 'UpdateShipment',
      summary: 'Replace a Pending shipment',
      description: `Any other status is a 409 shipment_not_editable. ${ADDRESS_RULES}`,
      tags: TAGS,
      params: ShipmentParams,
      body: ShipmentRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) => {
      const { shipmentId } = request.params
      const saved = await updateShipment(
        database,
        businessAuthOf(request),
        shipmentId,
        request.body,
        geocoder,
      )
      return single('core', saved.shipment, saved.messages)
    },
  )
  app.delete(
    '/api/v1/shipments/:shipmentId',
    operation(['Shipments', 'Delete'], {
      operationId: 'DeleteShipment',
      summary: 'Delete a Pending shipment',
      description: 'Any other status is a 409 shipment_not_editable.',
      tags: TAGS,
      params: ShipmentParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await deleteShipment(database, businessAuthOf(request), request.params.shipmentId)),
  )
  for (const move of MOVES) {
    app.post(
      `/api/v1/shipments/:shipmentId/${move.path}`,
      operation(MODIFY, {
        operationId: move.operationId,
        summary: move.summary,
        description: MOVE_NOTE,
        tags: TAGS,
        params: ShipmentParams,
        response: ONE,
        errors: [400, 404, 409],
      }),
      async (request) =>
        single('core', await moveShipment(deps, businessAuthOf(request), request.params.shipmentId, move.to)),
    )
  }
  app.post(
    '/api/v1/shipments/:shipmentId/deliver',
    {
      // The proof is optional: no body at all is the same as {}.
      preValidation: async (request) => {
        request.body ??= {}
      },
      ...operation(MODIFY, {
        operationId: 'DeliverShipment',
        summary: 'InTransit -> Delivered, with an optional proof of delivery',
        description: `${MOVE_NOTE} fileId must name a file uploaded to this business (else 400). Notifies the business's users.`,
        tags: TAGS,
        params: ShipmentParams,
        body: DeliverRequest,
        response: ONE,
        errors: [400, 404, 409],
      }),
    },
    async (request) =>
      single(
        'core',
        await moveShipment(deps, businessAuthOf(request), request.params.shipmentId, 'Delivered', {
          proof: request.body,
        }),
      ),
  )
  app.post(
    '/api/v1/shipments/:shipmentId/fail',
    operation(MODIFY, {
      operationId: 'FailShipment',
      summary: 'InTransit -> Failed, with the reason',
      description: `${MOVE_NOTE} Notifies the business's users.`,
      tags: TAGS,
      params: ShipmentParams,
      body: FailRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await moveShipment(deps, businessAuthOf(request), request.params.shipmentId, 'Failed', {
          reason: request.body.reason,
        }),
      ),
  )
}
