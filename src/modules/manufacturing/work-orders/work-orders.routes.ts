import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { BomParams } from '../boms/index.js'
import { completeWorkOrder, moveWorkOrder } from './work-order-status.service.js'
import {
  CompleteWorkOrderRequest,
  WorkOrderParams,
  WorkOrderRequest,
  WorkOrderResponse,
} from './work-orders.schemas.js'
import { createWorkOrder, getWorkOrder, listWorkOrders, updateWorkOrder } from './work-orders.service.js'

const TAGS = ['WorkOrders']
const ONE = SingleResult('core', WorkOrderResponse)
const PAGE = PagedResult('core', WorkOrderResponse)
const VIEW = ['WorkOrders', 'View'] as const
const MODIFY = ['WorkOrders', 'Modify'] as const
const LIST_NOTE =
  '$filter and $orderby over code, status, bomId, productId, quantity, plannedStart, plannedEnd, completedAt, dateCreated, dateModified; $search over code, notes and the product sku and name. Newest first.'

const MOVES = [
  {
    path: 'release',
    to: 'Released',
    operationId: 'ReleaseWorkOrder',
    summary: 'Release a Draft work order',
    description: "Draft -> Released; freezes the standard cost from the BOM's cost now.",
  },
  {
    path: 'start',
    to: 'InProgress',
    operationId: 'StartWorkOrder',
    summary: 'Start a Released work order',
    description: 'Released -> InProgress.',
  },
  {
    path: 'cancel',
    to: 'Cancelled',
    operationId: 'CancelWorkOrder',
    summary: 'Cancel a work order',
    description: 'Draft, Released or InProgress -> Cancelled; nothing is posted.',
  },
] as const

/** Work orders (M14): make a product from its BOM, posting consumption and output to the ledger. */
export function registerWorkOrderRoutes(app: HttpApp, deps: AppDeps) {
  const { database } = deps
  app.get(
    '/api/v1/work-orders',
    operation(VIEW, {
      operationId: 'GetWorkOrders',
      summary: "The business's work orders",
      description: LIST_NOTE,
      tags: TAGS,
      querystring: ListQuery,
      response: PAGE,
      errors: [400],
    }),
    async (request) => listWorkOrders(database, businessAuthOf(request), request.query),
  )

  app.get(
    '/api/v1/bom/:bomId/work-orders',
    operation(['Products', 'View'], {
      operationId: 'GetBomWorkOrders',
      summary: 'The work orders that used this BOM',
      description: `Same page shape as GET /api/v1/work-orders. ${LIST_NOTE}`,
      tags: ['Boms'],
      params: BomParams,
      querystring: ListQuery,
      response: PAGE,
      errors: [400, 404],
    }),
    async (request) => listWorkOrders(database, businessAuthOf(request), request.query, request.params.bomId),
  )

  app.post(
    '/api/v1/work-orders',
    operation(MODIFY, {
      operationId: 'CreateWorkOrder',
      summary: 'Create a Draft work order from an Active BOM',
      description: 'Code WO-000001 is assigned by the server; the product is the BOM’s.',
      tags: TAGS,
      body: WorkOrderRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) => single('core', await createWorkOrder(database, businessAuthOf(request), request.body)),
  )

  app.get(
    '/api/v1/work-orders/:workOrderId',
    operation(VIEW, {
      operationId: 'GetWorkOrder',
      summary: 'One work order, standard and actual cost side by side',
      tags: TAGS,
      params: WorkOrderParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getWorkOrder(database, businessAuthOf(request), request.params.workOrderId)),
  )

  app.put(
    '/api/v1/work-orders/:workOrderId',
    operation(MODIFY, {
      operationId: 'UpdateWorkOrder',
      summary: 'Replace a Draft work order',
      description: 'Any other status is a 409 work_order_not_editable.',
      tags: TAGS,
      params: WorkOrderParams,
      body: WorkOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateWorkOrder(database, businessAuthOf(request), request.params.workOrderId, request.body),
      ),
  )

  for (const move of MOVES) {
    app.post(
      `/api/v1/work-orders/:workOrderId/${move.path}`,
      operation(MODIFY, {
        operationId: move.operationId,
        summary: move.summary,
        description: `${move.description} Any other move is a 409 invalid_status_transition.`,
        tags: TAGS,
        params: WorkOrderParams,
        response: ONE,
        errors: [400, 404, 409],
      }),
      async (request) =>
        single(
          'core',
          await moveWorkOrder(database, businessAuthOf(request), request.params.workOrderId, move.to),
        ),
    )
  }

  app.post(
    '/api/v1/work-orders/:workOrderId/complete',
    operation(MODIFY, {
      operationId: 'CompleteWorkOrder',
      summary: 'Complete a Released or InProgress work order',
      description: 'Publishes WorkOrderCompleted. Any other status is a 409 invalid_status_transition.',
      tags: TAGS,
      params: WorkOrderParams,
      body: CompleteWorkOrderRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await completeWorkOrder(
          deps,
          businessAuthOf(request),
          request.params.workOrderId,
          request.body ?? {},
        ),
      ),
  )
}
