import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { PurchaseOrderParams } from './purchase-orders.schemas.js'
import { ReceiptParams, ReceiptRequest, ReceiptResponse, ReverseReceiptRequest } from './receipts.schemas.js'
import { listReceipts, receive, reverseReceipt } from './receipts.service.js'

const TAGS = ['PurchaseOrders']
const ONE = SingleResult('core', ReceiptResponse)

/** Receipts of a purchase order: goods received into stock through the ledger, and their reversals. */
export function registerReceiptRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/v1/purchase-orders/:purchaseOrderId/receipts',
    operation(['PurchaseOrders', 'View'], {
      operationId: 'GetPurchaseReceipts',
      summary: "A purchase order's receipts, reversed ones included",
      description:
        '$filter and $orderby over effectiveDate, reversedAt, dateCreated; $search over notes. Oldest effective date first.',
      tags: TAGS,
      params: PurchaseOrderParams,
      querystring: ListQuery,
      response: PagedResult('core', ReceiptResponse),
      errors: [400, 404],
    }),
    async (request) =>
      listReceipts(deps, businessAuthOf(request), request.params.purchaseOrderId, request.query),
  )

  app.post(
    '/api/v1/purchase-orders/:purchaseOrderId/receipts',
    operation(['PurchaseOrders', 'Modify'], {
      operationId: 'ReceivePurchaseOrder',
      summary: 'Receive goods of a Submitted or PartiallyReceived purchase order into stock',
      description:
        'Each line names a line of the order by lineId or by productId. The order becomes PartiallyReceived, or Received when every line has all it ordered, and PurchaseOrderReceived is published (a notification). 400 naming lines.<i> for a line not on the order or named twice; 409 over_receipt naming lines.<i>.quantity beyond the ordered quantity plus purchasing.receiptTolerancePercent; 409 invalid_status_transition for another status; 409 product_archived naming lines.<i>.quantity.',
      tags: TAGS,
      params: PurchaseOrderParams,
      body: ReceiptRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await receive(deps, businessAuthOf(request), request.params.purchaseOrderId, request.body),
      ),
  )

  app.post(
    '/api/v1/purchase-orders/:purchaseOrderId/receipts/:receiptId/reverse',
    operation(['PurchaseOrders', 'Modify'], {
      operationId: 'ReversePurchaseReceipt',
      summary: 'Reverse a receipt: reversing stock ledger entries, never a delete',
      description:
        'The order must be PartiallyReceived or Received (409 invalid_status_transition otherwise, e.g. Closed); it moves back to PartiallyReceived, or Submitted when nothing stays received. 409 purchase_receipt_reversed when already reversed; 409 stock_shortfall when the stock would go below zero.',
      tags: TAGS,
      params: ReceiptParams,
      body: ReverseReceiptRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await reverseReceipt(
          deps,
          businessAuthOf(request),
          request.params.purchaseOrderId,
          request.params.receiptId,
          request.body ?? {},
        ),
      ),
  )
}
