import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  CustomerGroupParams,
  CustomerGroupRequest,
  CustomerGroupResponse,
  DeleteCustomerGroupQuery,
} from './customer-groups.schemas.js'
import * as service from './customer-groups.service.js'

const TAGS = ['CustomerGroups']
const PATH = '/api/v1/CustomerGroups'

export function registerCustomerGroupRoutes(app: HttpApp, { database }: AppDeps) {
  const { db } = database

  app.get(
    PATH,
    operation(['Customers', 'View'], {
      operationId: 'GetAllCustomerGroups',
      summary: 'Customer groups of the business',
      description:
        '$filter and $orderby over name, description, dateCreated, dateModified; $search matches name or description. Default order: name.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', CustomerGroupResponse),
      errors: [400],
    }),
    async (request) => service.listGroups(db, businessAuthOf(request), request.query),
  )

  app.post(
    PATH,
    operation(['Customers', 'Modify'], {
      operationId: 'CreateCustomerGroup',
      summary: 'Create a customer group',
      description: 'The name is unique in the business ignoring letter case (409 group_name_taken).',
      tags: TAGS,
      body: CustomerGroupRequest,
      response: SingleResult('core', CustomerGroupResponse),
      errors: [400, 409],
    }),
    async (request) => single('core', await service.createGroup(db, businessAuthOf(request), request.body)),
  )

  app.get(
    `${PATH}/:customerGroupId`,
    operation(['Customers', 'View'], {
      operationId: 'GetCustomerGroup',
      summary: 'One customer group',
      tags: TAGS,
      params: CustomerGroupParams,
      response: SingleResult('core', CustomerGroupResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await service.getGroup(db, businessAuthOf(request), request.params.customerGroupId)),
  )

  app.put(
    `${PATH}/:customerGroupId`,
    operation(['Customers', 'Modify'], {
      operationId: 'UpdateCustomerGroup',
      summary: 'Replace a customer group',
      description: 'Replaces name and description (an omitted description becomes null).',
      tags: TAGS,
      params: CustomerGroupParams,
      body: CustomerGroupRequest,
      response: SingleResult('core', CustomerGroupResponse),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await service.updateGroup(db, businessAuthOf(request), request.params.customerGroupId, request.body),
      ),
  )

  app.delete(
    `${PATH}/:customerGroupId`,
    operation(['Customers', 'Delete'], {
      operationId: 'DeleteCustomerGroup',
      summary: 'Delete a customer group',
      description:
        'A group that still has customers is refused with 409 group_in_use, unless `moveCustomersTo` names another group of the business ' +
        '(its customers move there) or is `none` (they are left without a group); the move and the delete happen in one transaction, ' +
        'and each moved customer gets a CustomerUpdated trace. The group is soft-deleted; its name becomes free again.',
      tags: TAGS,
      params: CustomerGroupParams,
      querystring: DeleteCustomerGroupQuery,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await service.deleteGroup(
          db,
          businessAuthOf(request),
          request.params.customerGroupId,
          request.query.moveCustomersTo,
        ),
      ),
  )
}
