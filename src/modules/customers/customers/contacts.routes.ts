import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
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
    operation(['Customers', 'Modify'], {
      operationId: 'CreateCustomerContact',
      summary: 'Add a contact to a customer',
      description:
        'isPrimary true makes it the primary contact and clears the flag on the others. Leaves a ContactAdded trace.',
      tags: TAGS,
      params: CustomerParams,
      body: ContactRequest,
      response: item,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await service.createContact(db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )

  app.put(
    `${PATH}/:contactId`,
    operation(['Customers', 'Modify'], {
      operationId: 'UpdateCustomerContact',
      summary: "Replace one of a customer's contacts",
      description:
        'Omitted optional fields become null and isPrimary false; isPrimary true clears the flag on the others. A contact of another customer is a 404. Leaves a ContactUpdated trace.',
      tags: TAGS,
      params: ContactParams,
      body: ContactRequest,
      response: item,
      errors: [400, 404],
    }),
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
    operation(['Customers', 'Delete'], {
      operationId: 'DeleteCustomerContact',
      summary: "Remove one of a customer's contacts",
      description: 'Returns the removed contact. Leaves a ContactRemoved trace.',
      tags: TAGS,
      params: ContactParams,
      response: item,
      errors: [400, 404],
    }),
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
