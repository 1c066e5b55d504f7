import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  cancelTransferOrder,
  receiveTransferOrder,
  shipTransferOrder,
} from './transfer-order-moves.service.js'
import { createTransferShipment } from './transfer-order-shipment.service.js'
import {
  InTransitLineResponse,
  InTransitQuery,
  ReceiveTransferOrderRequest,
  ShipTransferOrderRequest,
  TransferOrderParams,
  TransferOrderRequest,
  TransferOrderResponse,
  TransferOrdersQuery,
  TransferShipmentRequest,
} from './transfer-orders.schemas.js'
import {
  createTransferOrder,
  getTransferOrder,
  listInTransit,
  listTransferOrders,
  updateTransferOrder,
} from './transfer-orders.service.js'

const TAGS = ['TransferOrders']
const ONE = SingleResult('core', TransferOrderResponse)
const VIEW = ['TransferOrders', 'View'] as const
const MODIFY = ['TransferOrders', 'Modify'] as const
const SIDES =
  'A transfer is visible to both its businesses (X-Business-Id or the API key’s business); the source creates, changes, ships and cancels it, the destination receives it (the other side: 409 transfer_order_wrong_business).'

/** Transfer orders: stock moved between two businesses of the organisation through the ledgers of both. */
export function registerTransferOrderRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    '/api/v1/transfer-orders',
    operation(VIEW, {
      operationId: 'GetTransferOrders',
      summary: 'The transfer orders the business sends or receives',
      description: `${SIDES} direction=Outgoing or Incoming narrows to one side. $filter and $orderby over number, status, sourceBusinessId, destinationBusinessId, shippedAt, receivedAt, dateCreated, dateModified; $search over number and notes. Newest first.`,
      tags: TAGS,
      querystring: TransferOrdersQuery,
      response: PagedResult('core', TransferOrderResponse),
      errors: [400],
    }),
    async (request) => listTransferOrders(database, businessAuthOf(request), request.query),
  )

  app.get(
    '/api/v1/transfer-orders/in-transit',
    operation(VIEW, {
      operationId: 'GetTransfersInTransit',
      summary: 'Stock in transit from or to the business',
      description:
        'One row per line of a shipped transfer with something not yet received: the quantity shipped minus received, at the cost it left with. direction=Outgoing or Incoming narrows to one side. $filter and $orderby over number, sku, productId, destinationProductId, sourceBusinessId, destinationBusinessId, shippedAt; $search over number, sku and product name. Oldest shipment first.',
      tags: TAGS,
      querystring: InTransitQuery,
      response: PagedResult('core', InTransitLineResponse),
      errors: [400],
    }),
    async (request) => listInTransit(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/transfer-orders',
    operation(MODIFY, {
      operationId: 'CreateTransferOrder',
      summary: 'Create a Draft transfer order from this business to another of the organisation',
      description:
        'Number TO-000001 is assigned per source business. Each line names a product of this business; the destination product is destinationProductId or the destination’s product with the same SKU. A destination business outside the organisation is a 404 business_not_found.',
      tags: TAGS,
      body: TransferOrderRequest,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await createTransferOrder(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/transfer-orders/:transferOrderId',
    operation(VIEW, {
      operationId: 'GetTransferOrder',
      summary: 'One transfer order, with what is in transit on each line and its receipts',
      description: SIDES,
      tags: TAGS,
      params: TransferOrderParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await getTransferOrder(database, businessAuthOf(request), request.params.transferOrderId),
      ),
  )

  app.put(
    '/api/v1/transfer-orders/:transferOrderId',
    operation(MODIFY, {
      operationId: 'UpdateTransferOrder',
      summary: 'Replace a Draft transfer order',
      description: `Replaces the destination, notes and lines. Any other status is a 409 transfer_order_not_editable. ${SIDES}`,
      tags: TAGS,
      params: TransferOrderParams,
      body: TransferOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateTransferOrder(
          database,
          businessAuthOf(request),
          request.params.transferOrderId,
          request.body,
        ),
      ),
  )

  app.post(
    '/api/v1/transfer-orders/:transferOrderId/ship',
    operation(MODIFY, {
      operationId: 'ShipTransferOrder',
      summary: 'Ship a Draft transfer order',
      description: `Draft -> Shipped: issues every line from the source at its moving-average cost at effectiveDate (TransferIssue in the source ledger, reference the number) and publishes TransferOrderShipped. The goods are then in transit until received. Any other status is a 409 invalid_status_transition; two ships at once ship once. ${SIDES}`,
      tags: TAGS,
      params: TransferOrderParams,
      body: ShipTransferOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await shipTransferOrder(
          deps,
          businessAuthOf(request),
          request.params.transferOrderId,
          request.body ?? {},
        ),
      ),
  )

  app.post(
    '/api/v1/transfer-orders/:transferOrderId/cancel',
    operation(MODIFY, {
      operationId: 'CancelTransferOrder',
      summary: 'Cancel a Draft transfer order',
      description: `Draft -> Cancelled; nothing is posted. Any other status is a 409 invalid_status_transition. ${SIDES}`,
      tags: TAGS,
      params: TransferOrderParams,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await cancelTransferOrder(deps, businessAuthOf(request), request.params.transferOrderId),
      ),
  )

  app.post(
    '/api/v1/transfer-orders/:transferOrderId/receipts',
    operation(MODIFY, {
      operationId: 'ReceiveTransferOrder',
      summary: 'Receive what arrived of a shipped transfer order',
      description: `By the destination business. Shipped or PartiallyReceived -> PartiallyReceived, or Received once every line has arrived: posts TransferReceipt into each destination product at the cost the line left with, and publishes TransferOrderReceived. A receipt dated before the ship date is a 400 naming effectiveDate; more than is in transit on a line a 409 receipt_exceeds_in_transit naming it. ${SIDES}`,
      tags: TAGS,
      params: TransferOrderParams,
      body: ReceiveTransferOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await receiveTransferOrder(
          deps,
          businessAuthOf(request),
          request.params.transferOrderId,
          request.body ?? {},
        ),
      ),
  )

  app.post(
    '/api/v1/transfer-orders/:transferOrderId/shipment',
    operation(MODIFY, {
      operationId: 'CreateTransferOrderShipment',
      summary: 'Create the shipment that carries a transfer, optionally on a delivery plan',
      description: `By the source business, for a Draft or Shipped transfer without one: a Pending shipment from the source business's address to the destination business's (coordinates looked up when missing), notes "Transfer TO-…", linked as shipmentId; with deliveryPlanId it is added to that plan (404 delivery_plan_not_found, 409 plan_not_editable). A second shipment is a 409 transfer_order_has_shipment; another status a 409 transfer_order_not_shippable. ${SIDES}`,
      tags: TAGS,
      params: TransferOrderParams,
      body: TransferShipmentRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await createTransferShipment(
          deps,
          businessAuthOf(request),
          request.params.transferOrderId,
          request.body ?? {},
        ),
      ),
  )
}
