import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CustomerParams, CustomerResponse } from './customers.schemas.js'
import { ActivityTrace, AddActivityTraceRequest } from './traces.schemas.js'
import * as service from './traces.service.js'

const PATH = '/api/v1/Customers/:customerId/traces'
const TAGS = ['Customers']

export function registerTraceRoutes(app: HttpApp, { database }: AppDeps) {
  const { db } = database

  app.get(
    PATH,
    operation(['Customers', 'View'], {
      operationId: 'GetActivityTraces',
      summary: "A customer's activity timeline",
      description:
        'Newest occurredAt first. $filter and $orderby over type, source (User|System), orderId, occurredAt, dateCreated; $search matches type or note.',
      tags: TAGS,
      params: CustomerParams,
      querystring: ListQuery,
      response: PagedResult('core', ActivityTrace),
      errors: [400, 404],
    }),
    async (request) =>
      service.listTraces(db, businessAuthOf(request), request.params.customerId, request.query),
  )

  app.post(
    PATH,
    operation(['Customers', 'Modify'], {
      operationId: 'AddActivityTrace',
      summary: "Record an activity on a customer's timeline",
      description:
        'A User entry recorded by the caller. occurredAt defaults to now, may be in the past, and at most one day in the future. Returns the customer.',
      tags: TAGS,
      params: CustomerParams,
      body: AddActivityTraceRequest,
      response: SingleResult('core', CustomerResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await service.addUserTrace(db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )
}
