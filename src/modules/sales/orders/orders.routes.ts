import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CreateOrderRequest, OrderParams, OrderResponse, UpdateOrderRequest } from './orders.schemas.js'
import { createOrder, getOrder, listOrders, updateOrder } from './orders.service.js'

const TAGS = ['Orders']
const VIEW = ['Orders', 'View'] as const
const MODIFY = ['Orders', 'Modify'] as const
const ONE = SingleResult('core', OrderResponse)

/** Orders (M1): a customer's order with lines, a server-computed total and a small status machine. */
export function registerOrderRoutes(app: HttpApp, { database, services }: AppDeps) {
  app.get(
    '/api/v1/orders',
    operation(VIEW, {
      operationId: 'GetOrders',
      summary: "The business's orders, with their lines",
      description:
        '$filter and $orderby over code, status, customerId, currency, total, orderDate, dateCreated, dateModified; ' +
        "$search matches code, notes and the customer's name. Newest orderDate first by default.",
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', OrderResponse),
      errors: [400],
    }),
    async (request) => listOrders(database, businessAuthOf(request), request.query),
  )

  app.post(
    '/api/v1/orders',
    operation(MODIFY, {
      operationId: 'CreateOrder',
      summary: 'Create a Draft order',
      description:
        'The customer must be a customer of this business that is not deleted (else 400 naming customerId). ' +
        'Each line needs a productId or a description (else 400 naming lines.<i>). The code (ORD-000001) and total are assigned by the server; ' +
        "orderDate defaults to now and currency to the business's currency. Writes OrderCreated on the customer's timeline.",
      tags: TAGS,
      body: CreateOrderRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) =>
      single('core', await createOrder(database, businessAuthOf(request), request.body, services.events)),
  )

  app.get(
    '/api/v1/orders/:orderId',
    operation(VIEW, {
      operationId: 'GetOrder',
      summary: 'One order with its lines',
      tags: TAGS,
      params: OrderParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getOrder(database, businessAuthOf(request), request.params.orderId)),
  )

  app.put(
    '/api/v1/orders/:orderId',
    operation(MODIFY, {
      operationId: 'UpdateOrder',
      summary: 'Replace the fields and lines of a Draft or Confirmed order',
      description:
        'A Fulfilled or Cancelled order is a 409 order_not_editable. The order may keep its customer even if that customer was since deleted; ' +
        "moving it to another customer needs one that is not deleted. Writes OrderUpdated on the customer's timeline (and on the previous customer's when moved).",
      tags: TAGS,
      params: OrderParams,
      body: UpdateOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateOrder(
          database,
          businessAuthOf(request),
          request.params.orderId,
          request.body,
          services.events,
        ),
      ),
  )
}
