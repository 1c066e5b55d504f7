import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import { errorResponses } from '../../../http/error-responses.js'
import type { HttpApp } from '../../../http/kernel.js'
import { CORE_SECURITY } from '../../../http/security-schemes.js'
import type { AppDeps } from '../../../platform/deps.js'
import { ContactParams, ContactRequest, ContactResponse } from './contacts.schemas.js'
import * as service from './contacts.service.js'
import { CustomerParams } from './customers.schemas.js'

const PATH = '/api/v1/Customers/:customerId/contacts'
const TAGS = ['Customers']

export function registerContactRoutes(app: HttpApp, { database }: AppDeps) {
  const { db } = database
  const item = SingleResult('core', ContactResponse)

  app.post(
    PATH,
    {
      config: { access: { permission: ['Customers', 'Modify'] } },
      schema: {
        operationId: 'CreateCustomerContact',
        summary: 'Add a contact to a customer',
        description:
          'isPrimary true makes it the primary contact and clears the flag on the others. Leaves a ContactAdded trace.',
        tags: TAGS,
        security: CORE_SECURITY,
        params: CustomerParams,
        body: ContactRequest,
        response: { 200: item, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single(
        'core',
        await service.createContact(db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )

  app.put(
    `${PATH}/:contactId`,
    {
      config: { access: { permission: ['Customers', 'Modify'] } },
      schema: {
        operationId: 'UpdateCustomerContact',
        summary: "Replace one of a customer's contacts",
        description:
          'Omitted optional fields become null and isPrimary false; isPrimary true clears the flag on the others. A contact of another customer is a 404. Leaves a ContactUpdated trace.',
        tags: TAGS,
        security: CORE_SECURITY,
        params: ContactParams,
        body: ContactRequest,
        response: { 200: item, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single(
        'core',
        await service.updateContact(
          db,
          businessAuthOf(request),
          request.params.customerId,
          request.params.contactId,
          request.body,
        ),
      ),
  )

  app.delete(
    `${PATH}/:contactId`,
    {
      config: { access: { permission: ['Customers', 'Delete'] } },
      schema: {
        operationId: 'DeleteCustomerContact',
        summary: "Remove one of a customer's contacts",
        description: 'Returns the removed contact. Leaves a ContactRemoved trace.',
        tags: TAGS,
        security: CORE_SECURITY,
        params: ContactParams,
        response: { 200: item, ...errorResponses('core', 400, 401, 403, 404) },
      },
    },
    async (request) =>
      single(
        'core',
        await service.deleteContact(
          db,
          businessAuthOf(request),
          request.params.customerId,
          request.params.contactId,
        ),
      ),
  )
}
