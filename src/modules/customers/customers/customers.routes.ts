import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  BulkDeleteCustomersRequest,
  CreateCustomerRequest,
  CustomerParams,
  CustomerResponse,
  UpdateCustomerRequest,
} from './customers.schemas.js'
import * as service from './customers.service.js'

export const CUSTOMERS_PATH = '/api/v1/Customers'
export const CUSTOMER_TAGS = ['Customers']

export function registerCustomerCrudRoutes(app: HttpApp, { database }: AppDeps) {
  const { db } = database
  const item = SingleResult('core', CustomerResponse)

  app.get(
    CUSTOMERS_PATH,
    {
      config: { access: { permission: ['Customers', 'View'] } },
      schema: {
        operationId: 'GetAllCustomers',
        summary: 'Customers of the business, with contacts and attachments',
        description:
          "$filter over name, email, phoneNumber, code, status, type, customerGroupId, dateCreated, dateModified and metadata/<key> (e.g. metadata/erpId eq 'C-1042'); " +
          '$orderby over the same fields except metadata; $search matches name, email, phone number, or the first, last or full name of a contact. ' +
          'Default order: newest first. Deleted customers never appear.',
        tags: CUSTOMER_TAGS,
        security: CORE_SECURITY,
        querystring: ListQuery,
        response: { 200: PagedResult('core', CustomerResponse), ...errorResponses('core', 400, 401, 403) },
      },
    },
    async (request) => service.listCustomers(db, businessAuthOf(request), request.query),
  )

  app.post(
    CUSTOMERS_PATH,
    {
      config: { access: { permission: ['Customers', 'Modify'] } },
      schema: {
        operationId: 'CreateCustomer',
        summary: 'Create a customer',
        description:
          'Assigns the next code (CUS-000001...). type defaults to Individual, status to Active. customerGroupId must name a group of the business (400 otherwise). ' +
          'Contacts may be created with it (at most one primary). Leaves a CustomerCreated trace.',
        tags: CUSTOMER_TAGS,
        security: CORE_SECURITY,
        body: CreateCustomerRequest,
        response: { 200: item, ...errorResponses('core', 400, 401, 403) },
      },
    },
    async (request) =>
      single('core', await service.createCustomer(db, businessAuthOf(request), request.body)),
  )

  // Static segment: matched before /:customerId in any letter case (find-my-way prefers static routes).
  app.put(
    `${CUSTOMERS_PATH}/delete-customers`,
    {
      config: { access: { permission: ['Customers', 'Delete'] } },
      schema: {
        operationId: 'BulkDeleteCustomers',
        summary: 'Delete several customers at once',
        description:
          'All or nothing: if any id is unknown, of another business or already deleted, nothing is deleted and the 404 message lists those ids. ' +
          'Each deleted customer gets a CustomerDeleted trace; orders and history stay.',
        tags: CUSTOMER_TAGS,
        security: CORE_SECURITY,
        body: BulkDeleteCustomersRequest,
        response: {
          200: SingleResult('core', Type.Boolean()),
          ...errorResponses('core', 400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      single('core', await service.bulkDeleteCustomers(db, businessAuthOf(request), request.body)),
  )

  app.get(
    `${CUSTOMERS_PATH}/:customerId`,
    {
      config: { access: { permission: ['Customers', 'View'] } },
      schema: {
        operationId: 'GetCustomer',
        summary: 'One customer with contacts, attachments and metadata',
        tags: CUSTOMER_TAGS,
        security: CORE_SECURITY,
        params: CustomerParams,
        response: { 200: item, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single(
        'core',
        await service.loadCustomerResponse(db, businessAuthOf(request), request.params.customerId),
      ),
  )

  app.put(
    `${CUSTOMERS_PATH}/:customerId`,
    {
      config: { access: { permission: ['Customers', 'Modify'] } },
      schema: {
        operationId: 'UpdateCustomer',
        summary: 'Replace a customer',
        description:
          'Replaces every editable field: an omitted optional field becomes null (type and status their defaults). Contacts are not touched ' +
          '(they have their own operations); metadata is replaced only when sent. Leaves a CustomerUpdated trace naming the changed fields; ' +
          'a PUT that changes nothing writes nothing.',
        tags: CUSTOMER_TAGS,
        security: CORE_SECURITY,
        params: CustomerParams,
        body: UpdateCustomerRequest,
        response: { 200: item, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single(
        'core',
        await service.updateCustomer(db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )

  app.delete(
    `${CUSTOMERS_PATH}/:customerId`,
    {
      config: { access: { permission: ['Customers', 'Delete'] } },
      schema: {
        operationId: 'DeleteCustomer',
        summary: 'Delete a customer',
        description:
          'Soft delete: the customer disappears from the API (404 afterwards) but its orders, shipments and traces stay in the history. Leaves a CustomerDeleted trace.',
        tags: CUSTOMER_TAGS,
        security: CORE_SECURITY,
        params: CustomerParams,
        response: {
          200: SingleResult('core', Type.Boolean()),
          ...errorResponses('core', 400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      single('core', await service.deleteCustomer(db, businessAuthOf(request), request.params.customerId)),
  )
}
