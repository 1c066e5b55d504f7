import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { movePurchaseOrder } from './purchase-order-status.service.js'
import {
  PurchaseOrderParams,
  PurchaseOrderRequest,
  PurchaseOrderResponse,
  ReorderDraftsRequest,
  ReorderDraftsResponse,
} from './purchase-orders.schemas.js'
import {
  createPurchaseOrder,
  deletePurchaseOrder,
  getPurchaseOrder,
  listPurchaseOrders,
  updatePurchaseOrder,
} from './purchase-orders.service.js'
import { registerReceiptRoutes } from './receipts.routes.js'
import { draftsFromReorderSuggestions } from './reorder-drafts.service.js'

const TAGS = ['PurchaseOrders']
const ONE = SingleResult('core', PurchaseOrderResponse)
const VIEW = ['PurchaseOrders', 'View'] as const
const MODIFY = ['PurchaseOrders', 'Modify'] as const
const LIST_NOTE =
  '$filter and $orderby over number, status, supplierId, currency, total, expectedDate (a date), submittedAt, receivedAt, closedAt, dateCreated, dateModified; $search over number, notes and the supplier name. Newest first. Submitted or PartiallyReceived orders past their expected date are announced once each (PurchaseOrderOverdue, a notification): by the server every ten minutes, and at once when this list is read.'

const MOVES = [
  {
    path: 'submit',
    to: 'Submitted',
    operationId: 'SubmitPurchaseOrder',
    summary: 'Submit a Draft purchase order to its supplier',
    description:
      'Draft -> Submitted; publishes PurchaseOrderSubmitted (a notification). The order can no longer be edited.',
  },
  {
    path: 'cancel',
    to: 'Cancelled',
    operationId: 'CancelPurchaseOrder',
    summary: 'Cancel a purchase order',
    description: 'Draft or Submitted -> Cancelled; an order that has received anything cannot be cancelled.',
  },
  {
    path: 'close',
    to: 'Closed',
    operationId: 'ClosePurchaseOrder',
    summary: 'Close a received purchase order',
    description:
      'Received -> Closed, or PartiallyReceived -> Closed (a short-close: what is outstanding will not come, and no more can be received). A Closed order takes no receipts or reversals.',
  },
] as const

/** Purchase orders (M13): order products from a supplier and receive them into stock. */
export function registerPurchaseOrderRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    '/api/v1/purchase-orders',
    operation(VIEW, {
      operationId: 'GetPurchaseOrders',
      summary: "The business's purchase orders",
      description: LIST_NOTE,
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', PurchaseOrderResponse),
      errors: [400],
    }),
    async (request) => listPurchaseOrders(deps, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/purchase-orders',
    operation(MODIFY, {
      operationId: 'CreatePurchaseOrder',
      summary: 'Create a Draft purchase order',
      description:
        "Number PO-000001 is assigned by the server. A line without unitCost takes the supplier's unit cost for the product (PUT /api/v1/suppliers/{id}/products/{productId}); without one either, a 400 names lines.<i>.unitCost.",
      tags: TAGS,
      body: PurchaseOrderRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) =>
      single('core', await createPurchaseOrder(database, businessAuthOf(request), request.body)),
  )

  app.post(
    '/api/v1/purchase-orders/from-reorder-suggestions',
    operation(MODIFY, {
      operationId: 'CreatePurchaseOrdersFromReorderSuggestions',
      summary: 'Draft purchase orders for the products at or below their reorder level',
      description:
        "One Draft per preferred supplier (or only the supplierId given) with a line per product at or below its reorder level that the supplier sells, at the supplier's unit cost. Quantity: max(minimum order quantity, 2 × reorderLevel − onHand − already on open purchase orders); a product with enough on open orders is left out. Expected date: today plus the longest lead time of its lines.",
      tags: TAGS,
      body: ReorderDraftsRequest,
      response: SingleResult('core', ReorderDraftsResponse),
      errors: [400],
    }),
    async (request) =>
      single(
        'core',
        await draftsFromReorderSuggestions(database, businessAuthOf(request), request.body ?? {}),
      ),
  )

  app.get(
    '/api/v1/purchase-orders/:purchaseOrderId',
    operation(VIEW, {
      operationId: 'GetPurchaseOrder',
      summary: 'One purchase order with its lines and what each has received',
      tags: TAGS,
      params: PurchaseOrderParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await getPurchaseOrder(database, businessAuthOf(request), request.params.purchaseOrderId),
      ),
  )

  app.put(
    '/api/v1/purchase-orders/:purchaseOrderId',
    operation(MODIFY, {
      operationId: 'UpdatePurchaseOrder',
      summary: 'Replace a Draft purchase order and its lines',
      description: 'Any other status is a 409 purchase_order_not_editable.',
      tags: TAGS,
      params: PurchaseOrderParams,
      body: PurchaseOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updatePurchaseOrder(
          database,
          businessAuthOf(request),
          request.params.purchaseOrderId,
          request.body,
        ),
      ),
  )

  app.delete(
    '/api/v1/purchase-orders/:purchaseOrderId',
    operation(['PurchaseOrders', 'Delete'], {
      operationId: 'DeletePurchaseOrder',
      summary: 'Delete a Draft purchase order',
      description: 'Any other status is a 409 purchase_order_not_editable (cancel a Submitted one instead).',
      tags: TAGS,
      params: PurchaseOrderParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await deletePurchaseOrder(database, businessAuthOf(request), request.params.purchaseOrderId),
      ),
  )

  for (const move of MOVES) {
    app.post(
      `/api/v1/purchase-orders/:purchaseOrderId/${move.path}`,
      operation(MODIFY, {
        operationId: move.operationId,
        summary: move.summary,
        description: `${move.description} Any other move is a 409 invalid_status_transition naming both states.`,
        tags: TAGS,
        params: PurchaseOrderParams,
        response: ONE,
        errors: [400, 404, 409],
      }),
      async (request) =>
        single(
          'core',
          await movePurchaseOrder(deps, businessAuthOf(request), request.params.purchaseOrderId, move.to),
        ),
    )
  }

  registerReceiptRoutes(app, deps)
}
