import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { CarrierContactRequest, ContactIdParams, ContactResponse } from './carrier-contacts.schemas.js'
import { addContact, deleteContact, listContacts, updateContact } from './carrier-contacts.service.js'
import {
  CarrierIdParams,
  CarriersQuery,
  ConfigureCarrierRequest,
  ConfiguredCarrierParams,
  FulfillmentProviderLookupWrapperResponse,
  FulfillmentProviderResponse,
  UpdateCarrierRequest,
} from './carriers.schemas.js'
import {
  carrierLookups,
  configureCarrier,
  deleteConfiguredCarrier,
  getCarrier,
  listCarriers,
  updateCarrier,
} from './carriers.service.js'

const TAGS = ['Carriers']
const ONE = SingleResult('core', FulfillmentProviderResponse)
const VIEW = ['Integrations', 'View'] as const
const MODIFY = ['Integrations', 'Modify'] as const
const SECRET_NOTE =
  'Credentials are encrypted at rest (AES-256-GCM) and never returned; hasCredentials says whether some are set.'

/** Carriers (M6): the catalogue of fulfillment providers, the business's configuration of them, and contacts. */
export function registerCarrierRoutes(app: HttpApp, deps: AppDeps) {
  const { database, config } = deps
  app.get(
    '/api/carriers',
    operation(VIEW, {
      operationId: 'GetCarriers',
      summary: 'The carrier catalogue (or only configured carriers)',
      description: 'All on one page.',
      tags: TAGS,
      querystring: CarriersQuery,
      response: PagedResult('core', FulfillmentProviderResponse),
      errors: [400],
    }),
    async (request) => listCarriers(database, businessAuthOf(request), request.query.configured),
  )
  app.get(
    '/api/carriers/lookups',
    operation(VIEW, {
      operationId: 'GetCarrierLookups',
      summary: 'Carrier names, types and countries for pickers',
      tags: TAGS,
      response: SingleResult('core', FulfillmentProviderLookupWrapperResponse),
      errors: [],
    }),
    async (request) => single('core', await carrierLookups(database, businessAuthOf(request))),
  )
  app.post(
    '/api/carriers/configure',
    operation(MODIFY, {
      operationId: 'ConfigureCarrier',
      summary: 'Configure a catalogue carrier for this business (add or replace)',
      description: `isDefault true makes it the only default. ${SECRET_NOTE}`,
      tags: TAGS,
      body: ConfigureCarrierRequest,
      response: ONE,
      errors: [400, 409],
    }),
    async (request) => single('core', await configureCarrier(deps, businessAuthOf(request), request.body)),
  )
  app.get(
    '/api/carriers/contacts',
    operation(VIEW, {
      operationId: 'GetFulfillmentContacts',
      summary: "The business's carrier contacts",
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', ContactResponse),
      errors: [400],
    }),
    async (request) => listContacts(database, businessAuthOf(request), request.query),
  )
  app.post(
    '/api/carriers/contacts',
    operation(MODIFY, {
      operationId: 'AddFulfillmentContact',
      summary: 'Add a carrier contact',
      tags: TAGS,
      body: CarrierContactRequest,
      response: SingleResult('core', ContactResponse),
      errors: [400],
    }),
    async (request) => single('core', await addContact(database, businessAuthOf(request), request.body)),
  )
  app.put(
    '/api/carriers/contacts/:contactId',
    operation(MODIFY, {
      operationId: 'UpdateFulfillmentContact',
      summary: 'Replace a carrier contact',
      tags: TAGS,
      params: ContactIdParams,
      body: CarrierContactRequest,
      response: SingleResult('core', ContactResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await updateContact(database, businessAuthOf(request), request.params.contactId, request.body),
      ),
  )
  app.delete(
    '/api/carriers/contacts/:contactId',
    operation(['Integrations', 'Delete'], {
      operationId: 'DeleteFulfillmentContact',
      summary: 'Delete a carrier contact',
      tags: TAGS,
      params: ContactIdParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await deleteContact(database, businessAuthOf(request), request.params.contactId)),
  )
  app.get(
    '/api/carriers/:carrierId',
    operation(VIEW, {
      operationId: 'GetFulfillmentProvider',
      summary: 'One catalogue carrier with its configuration here',
      description: 'carrierId is the int32 catalogue id.',
      tags: TAGS,
      params: CarrierIdParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getCarrier(database, businessAuthOf(request), request.params.carrierId)),
  )
  app.patch(
    '/api/carriers/:carrierId',
    operation(MODIFY, {
      operationId: 'UpdateCarrier',
      summary: "Change a configured carrier's settings (only the fields sent)",
      description: `carrierId is the int32 catalogue id; credentials null removes them. ${SECRET_NOTE}`,
      tags: TAGS,
      params: CarrierIdParams,
      body: UpdateCarrierRequest,
      response: ONE,
      errors: [400, 404, 409],
    }),
    async (request) =>
      single(
        'core',
        await updateCarrier(
          database,
          config,
          businessAuthOf(request),
          request.params.carrierId,
          request.body,
        ),
      ),
  )
  app.delete(
    '/api/carriers/:carrierId',
    operation(MODIFY, {
      operationId: 'DeleteConfiguredCarrier',
      summary: 'Remove a configured carrier (by its configuration uuid)',
      description:
        'carrierId is the configured carrier’s uuid here (`configuration.id` in the carrier’s answers), not the int32 catalogue id the other carrier operations take; returns the catalogue entry, now unconfigured.',
      tags: TAGS,
      params: ConfiguredCarrierParams,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await deleteConfiguredCarrier(database, businessAuthOf(request), request.params.carrierId),
      ),
  )
}
