import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  BulkDeleteCustomersRequest,
  CreateCustomerRequest,
  CustomerParams,
  CustomerResponse,
  UpdateCustomerRequest,
} from './customers.schemas.js'
import * as service from './customers.service.js'

const CUSTOMERS_PATH = '/api/v1/Customers'
const CUSTOMER_TAGS = ['Customers']

export function registerCustomerCrudRoutes(app: HttpApp, { database }: AppDeps) {
  const { db } = database
  const item = SingleResult('core', CustomerResponse)

  app.get(
    CUSTOMERS_PATH,
    operation(['Customers', 'View'], {
      operationId: 'GetAllCustomers',
      summary: 'Customers of the business, with contacts and attachments',
      description:
        "$filter over name, email, phoneNumber, code, status, type, customerGroupId, dateCreated, dateModified and metadata/<key> (e.g. metadata/erpId eq 'C-1042'); " +
        '$orderby over the same fields except metadata; $search matches name, email, phone number, or the first, last or full name of a contact. ' +
        'Default order: newest first. Deleted customers never appear.',
      tags: CUSTOMER_TAGS,
      querystring: ListQuery,
      response: PagedResult('core', CustomerResponse),
      errors: [400],
    }),
    async (request) => service.listCustomers(db, businessAuthOf(request), request.query),
  )

  app.post(
    CUSTOMERS_PATH,
    operation(['Customers', 'Modify'], {
      operationId: 'CreateCustomer',
      summary: 'Create a customer',
      description:
        'Assigns the next code (CUS-000001...). type defaults to Individual, status to Active. customerGroupId must name a group of the business (400 otherwise). ' +
        'Contacts may be created with it (at most one primary). Leaves a CustomerCreated trace.',
      tags: CUSTOMER_TAGS,
      body: CreateCustomerRequest,
      response: item,
      errors: [400],
    }),
    async (request) =>
      single('core', await service.createCustomer(db, businessAuthOf(request), request.body)),
  )

  // Static segment: matched before /:customerId in any letter case (find-my-way prefers static routes).
  app.put(
    `${CUSTOMERS_PATH}/delete-customers`,
    operation(['Customers', 'Delete'], {
      operationId: 'BulkDeleteCustomers',
      summary: 'Delete several customers at once',
      description:
        'All or nothing: if any id is unknown, of another business or already deleted, nothing is deleted and the 404 message lists those ids. ' +
        'Each deleted customer gets a CustomerDeleted trace; orders and history stay.',
      tags: CUSTOMER_TAGS,
      body: BulkDeleteCustomersRequest,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await service.bulkDeleteCustomers(db, businessAuthOf(request), request.body)),
  )

  app.get(
    `${CUSTOMERS_PATH}/:customerId`,
    operation(['Customers', 'View'], {
      operationId: 'GetCustomer',
      summary: 'One customer with contacts, attachments and metadata',
      tags: CUSTOMER_TAGS,
      params: CustomerParams,
      response: item,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await service.loadCustomerResponse(db, businessAuthOf(request), request.params.customerId),
      ),
  )

  app.put(
    `${CUSTOMERS_PATH}/:customerId`,
    operation(['Customers', 'Modify'], {
      operationId: 'UpdateCustomer',
      summary: 'Replace a customer',
      description:
        'Replaces every editable field: an omitted optional field becomes null (type and status their defaults). Contacts are not touched ' +
        '(they have their own operations); metadata is replaced only when sent. Leaves a CustomerUpdated trace naming the changed fields; ' +
        'a PUT that changes nothing writes nothing.',
      tags: CUSTOMER_TAGS,
      params: CustomerParams,
      body: UpdateCustomerRequest,
      response: item,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await service.updateCustomer(db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )

  app.delete(
    `${CUSTOMERS_PATH}/:customerId`,
    operation(['Customers', 'Delete'], {
      operationId: 'DeleteCustomer',
      summary: 'Delete a customer',
      description:
        'Soft delete: the customer disappears from the API (404 afterwards) but its orders, shipments and traces stay in the history. Leaves a CustomerDeleted trace.',
      tags: CUSTOMER_TAGS,
      params: CustomerParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await service.deleteCustomer(db, businessAuthOf(request), request.params.customerId)),
  )
}
