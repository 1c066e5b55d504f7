import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { moveOrder } from './order-status.service.js'
import { CreateOrderRequest, OrderParams, OrderResponse, UpdateOrderRequest } from './orders.schemas.js'
import { createOrder, getOrder, listOrders, updateOrder } from './orders.service.js'

const TAGS = ['Orders']
const VIEW = { access: { permission: ['Orders', 'View'] } } as const
const MODIFY = { access: { permission: ['Orders', 'Modify'] } } as const
const ONE = SingleResult('core', OrderResponse)

const STATUS_MOVES = [
  {
    path: 'confirm',
    to: 'Confirmed',
    operationId: 'ConfirmOrder',
    summary: 'Confirm a Draft order',
    description: "Draft -> Confirmed; sets confirmedAt. Writes OrderConfirmed on the customer's timeline.",
  },
  {
    path: 'fulfill',
    to: 'Fulfilled',
    operationId: 'FulfillOrder',
    summary: 'Mark a Confirmed order fulfilled',
    description:
      "Confirmed -> Fulfilled; sets fulfilledAt. Writes OrderFulfilled on the customer's timeline.",
  },
  {
    path: 'cancel',
    to: 'Cancelled',
    operationId: 'CancelOrder',
    summary: 'Cancel a Draft or Confirmed order',
    description:
      "Draft or Confirmed -> Cancelled; sets cancelledAt. Writes OrderCancelled on the customer's timeline.",
  },
] as const

/** Orders (M1): a customer's order with lines, a server-computed total and a small status machine. */
export function registerOrderRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/v1/orders',
    {
      config: VIEW,
      schema: {
        operationId: 'GetOrders',
        summary: "The business's orders, with their lines",
        description:
          '$filter and $orderby over code, status, customerId, currency, total, orderDate, dateCreated, dateModified; ' +
          "$search matches code, notes and the customer's name. Newest orderDate first by default.",
        tags: TAGS,
        security: CORE_SECURITY,
        querystring: ListQuery,
        response: { 200: PagedResult('core', OrderResponse), ...errorResponses('core', 400, 401, 403) },
      },
    },
    async (request) => listOrders(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/orders',
    {
      config: MODIFY,
      schema: {
        operationId: 'CreateOrder',
        summary: 'Create a Draft order',
        description:
          'The customer must be a customer of this business that is not deleted (else 400 naming customerId). ' +
          'Each line needs a productId or a description (else 400 naming lines.<i>). The code (ORD-000001) and total are assigned by the server; ' +
          "orderDate defaults to now and currency to the business's currency. Writes OrderCreated on the customer's timeline.",
        tags: TAGS,
        security: CORE_SECURITY,
        body: CreateOrderRequest,
        response: { 200: ONE, ...errorResponses('core', 400, 401, 403) },
      },
    },
    async (request) => single('core', await createOrder(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/orders/:orderId',
    {
      config: VIEW,
      schema: {
        operationId: 'GetOrder',
        summary: 'One order with its lines',
        tags: TAGS,
        security: CORE_SECURITY,
        params: OrderParams,
        response: { 200: ONE, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single('core', await getOrder(database, businessAuthOf(request), request.params.orderId)),
  )

  app.put(
    '/api/v1/orders/:orderId',
    {
      config: MODIFY,
      schema: {
        operationId: 'UpdateOrder',
        summary: 'Replace the fields and lines of a Draft or Confirmed order',
        description:
          'A Fulfilled or Cancelled order is a 409 order_not_editable. The order may keep its customer even if that customer was since deleted; ' +
          "moving it to another customer needs one that is not deleted. Writes OrderUpdated on the customer's timeline (and on the previous customer's when moved).",
        tags: TAGS,
        security: CORE_SECURITY,
        params: OrderParams,
        body: UpdateOrderRequest,
        response: { 200: ONE, ...errorResponses('core', 400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      single(
        'core',
        await updateOrder(database, businessAuthOf(request), request.params.orderId, request.body),
      ),
  )

  for (const move of STATUS_MOVES) {
    app.post(
      `/api/v1/orders/:orderId/${move.path}`,
      {
        config: MODIFY,
        schema: {
          operationId: move.operationId,
          summary: move.summary,
          description: `${move.description} Any other move is a 409 invalid_status_transition naming the current and requested status.`,
          tags: TAGS,
          security: CORE_SECURITY,
          params: OrderParams,
          response: { 200: ONE, ...errorResponses('core', 400, 401, 403, 404, 409) },
        },
      },
      async (request) =>
        single('core', await moveOrder(database, businessAuthOf(request), request.params.orderId, move.to)),
    )
  }
}
