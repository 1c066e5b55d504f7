import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CustomerParams, CustomerResponse } from './customers.schemas.js'
import { MetadataPatch } from './metadata.schemas.js'
import { patchMetadata } from './metadata.service.js'

export function registerMetadataRoutes(app: HttpApp, { database }: AppDeps) {
  app.post(
    '/api/v1/Customers/:customerId/metadata',
    operation(['Customers', 'Modify'], {
      operationId: 'AddCustomerMetadata',
      summary: "Add, overwrite or remove keys of a customer's metadata",
      description:
        'A non-null value adds or overwrites the key; a null value removes it; keys not sent are kept. At most 50 keys after the merge ' +
        '(400 naming the keys that would be added). Leaves a MetadataChanged trace. Returns the customer.',
      tags: ['Customers'],
      params: CustomerParams,
      body: MetadataPatch,
      response: SingleResult('core', CustomerResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await patchMetadata(database.db, businessAuthOf(request), request.params.customerId, request.body),
      ),
  )
}
