import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
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
    {
      config: { access: { permission: ['Customers', 'View'] } },
      schema: {
        operationId: 'GetActivityTraces',
        summary: "A customer's activity timeline",
        description:
          'Newest occurredAt first. $filter and $orderby over type, source (User|System), orderId, occurredAt, dateCreated; $search matches type or note.',
        tags: TAGS,
        security: CORE_SECURITY,
        params: CustomerParams,
        querystring: ListQuery,
        response: { 200: PagedResult('core', ActivityTrace), ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      service.listTraces(db, businessAuthOf(request), request.params.customerId, request.query),
  )

  app.post(
    PATH,
    {
      config: { access: { permission: ['Customers', 'Modify'] } },
      schema: {
        operationId: 'AddActivityTrace',
        summary: "Record an activity on a customer's timeline",
        description:
          'A User entry recorded by the caller. occurredAt defaults to now, may be in the past, and at most one day in the future. Returns the customer.',
        tags: TAGS,
        security: CORE_SECURITY,
        params: CustomerParams,
        body: AddActivityTraceRequest,
        response: {
          200: SingleResult('core', CustomerResponse),
          ...errorResponses('core', 400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      single(
        'core',
        await service.addUserTrace(db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )
}
