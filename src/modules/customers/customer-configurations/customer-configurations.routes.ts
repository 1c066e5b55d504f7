import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CustomerParams } from '../customers/index.js'
import {
  CustomerConfigurationQuery,
  CustomerConfigurationResponse,
  SaveCustomerAppConfigurationCommand,
} from './customer-configurations.schemas.js'
import { listCustomerConfigurations, saveCustomerConfiguration } from './customer-configurations.service.js'

const TAGS = ['Settings']

/** Per-customer settings: free-form keys, or overrides of registry settings (then typed). */
export function registerCustomerConfigurationRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/customer/configurations',
    operation(['Settings', 'View'], {
      operationId: 'GetAllBusinessCustomerAppConfigurations',
      summary: 'The settings stored for one customer, by key',
      description: 'A bare array. A customer of another business, or a deleted one, is a 404.',
      tags: TAGS,
      querystring: CustomerConfigurationQuery,
      response: Type.Array(CustomerConfigurationResponse),
      errors: [400, 404],
    }),
    async (request) =>
      listCustomerConfigurations(database, businessAuthOf(request), request.query.customerId),
  )

  app.post(
    '/api/customer/:customerId/configuration',
    operation(['Settings', 'Modify'], {
      operationId: 'SaveBusinessCustomerAppConfiguration',
      summary: 'Set or remove one setting of a customer',
      description:
        'A non-null value adds or overwrites the key; null removes it. Keys are 1 to 100 of A-Z a-z 0-9 . _ - (case-sensitive), values at most 4000 characters. ' +
        'A key of the settings registry (see GET /api/settings/business) overrides that setting for this customer, so its value must fit the setting’s type.',
      tags: TAGS,
      params: CustomerParams,
      body: SaveCustomerAppConfigurationCommand,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await saveCustomerConfiguration(
          database,
          businessAuthOf(request),
          request.params.customerId,
          request.body,
        ),
      ),
  )
}
