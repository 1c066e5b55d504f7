import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { cancelReturn, receiveReturn, writeOffReturn } from './return-moves.service.js'
import {
  CreateReturnRequest,
  OrderReturnsParams,
  ReceiveReturnRequest,
  ReturnParams,
  ReturnResponse,
  ReturnsQuery,
} from './returns.schemas.js'
import { createReturn, getReturn, listOrderReturns, listReturns } from './returns.service.js'

const TAGS = ['Returns']
const ONE = SingleResult('core', ReturnResponse)
const VIEW = ['Orders', 'View'] as const
const MODIFY = ['Orders', 'Modify'] as const
const LIST_NOTE =
  '$filter and $orderby over number, status, orderId, shipmentId, customerId, value, receivedAt, dateCreated, dateModified; $search over number and reason. Newest first.'
const MOVE_NOTE =
  'Only a Requested return moves: any other status is a 409 invalid_status_transition, and two moves at once move once.'

/** Returns (RMA) of delivered goods: requested, then received back into stock, written off or cancelled. */
export function registerReturnRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    '/api/v1/returns',
    operation(VIEW, {
      operationId: 'GetReturns',
      summary: "The business's returns",
      description: LIST_NOTE,
      tags: TAGS,
      querystring: ReturnsQuery,
      response: PagedResult('core', ReturnResponse),
      errors: [400],
    }),
    async (request) => listReturns(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/returns',
    operation(MODIFY, {
      operationId: 'CreateReturn',
      summary: 'Request a return of delivered goods',
      description:
        'Against a Delivered shipment (shipmentId; another status: 409 shipment_not_delivered) or an order (orderId: what its Delivered shipments carried of its lines). Each line names a product and at most what was delivered of it less what other returns (not cancelled) take: more, or a product not delivered or not of the business, is a 400 naming lines.<n>.quantity or lines.<n>.productId. Numbered RMA-000001 per business; publishes ReturnRequested.',
      tags: TAGS,
      body: CreateReturnRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) => single('core', await createReturn(deps, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/returns/:returnId',
    operation(VIEW, {
      operationId: 'GetReturn',
      summary: 'One return, with its lines, their cost and their credit',
      tags: TAGS,
      params: ReturnParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getReturn(database, businessAuthOf(request), request.params.returnId)),
  )

  app.post(
    '/api/v1/returns/:returnId/receive',
    operation(MODIFY, {
      operationId: 'ReceiveReturn',
      summary: 'Receive a return: its goods back into stock at the cost they left with',
      description: `Requested -> Received: one SaleReturn ledger entry per line at the exact cost its shipment line left with, effective at receivedAt (default now; before the goods left: 400 naming receivedAt), reference the return's number. Its value is credited on the order. Publishes ReturnReceived. ${MOVE_NOTE}`,
      tags: TAGS,
      params: ReturnParams,
      body: ReceiveReturnRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await receiveReturn(deps, businessAuthOf(request), request.params.returnId, request.body ?? {}),
      ),
  )

  app.post(
    '/api/v1/returns/:returnId/write-off',
    operation(MODIFY, {
      operationId: 'WriteOffReturn',
      summary: 'Write a return off: credited, nothing back into stock',
      description: `Requested -> WrittenOff. ${MOVE_NOTE}`,
      tags: TAGS,
      params: ReturnParams,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await writeOffReturn(deps, businessAuthOf(request), request.params.returnId)),
  )

  app.post(
    '/api/v1/returns/:returnId/cancel',
    operation(MODIFY, {
      operationId: 'CancelReturn',
      summary: 'Cancel a return before its goods are received',
      description: `Requested -> Cancelled: nothing credited; its quantities may be returned again. ${MOVE_NOTE}`,
      tags: TAGS,
      params: ReturnParams,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single('core', await cancelReturn(deps, businessAuthOf(request), request.params.returnId)),
  )

  app.get(
    '/api/v1/orders/:orderId/returns',
    operation(VIEW, {
      operationId: 'GetOrderReturns',
      summary: "An order's returns",
      description: `The returns credited on the order (Received and WrittenOff ones are in its returnedValue). ${LIST_NOTE}`,
      tags: TAGS,
      params: OrderReturnsParams,
      querystring: ReturnsQuery,
      response: PagedResult('core', ReturnResponse),
      errors: [400, 404],
    }),
    async (request) =>
      listOrderReturns(database, businessAuthOf(request), request.params.orderId, request.query),
  )
}
