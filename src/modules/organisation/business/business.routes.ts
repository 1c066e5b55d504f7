import { authOf, businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import {
  BusinessDefaultSettings,
  BusinessParams,
  BusinessResponse,
  CreateBusinessRequest,
  UpdateBusinessCommand,
} from './business.schemas.js'
import { createBusiness, getMyBusiness, listChildren, updateBusiness } from './business.service.js'
import { businessDefaultSettings } from './reference-data.js'

const TAGS = ['Business']
const ONE = SingleResult('core', BusinessResponse)
const HIERARCHY =
  'A business may sit under a parent business of the same organisation (branches); the hierarchy has no cycles.'

/** Businesses of the organisation (Settings, M10). */
export function registerBusinessRoutes(app: HttpApp, { database }: AppDeps) {
  app.get(
    '/api/business/my-business',
    operation(['Settings', 'View'], {
      operationId: 'GetBusiness',
      summary: 'The business the request acts in (X-Business-Id, or the API key’s business)',
      tags: TAGS,
      response: ONE,
      errors: [404],
    }),
    async (request) => single('core', await getMyBusiness(database, businessAuthOf(request))),
  )

  app.get(
    '/api/business/default-configuration',
    operation(
      { public: true },
      {
        operationId: 'GetMetadataForBusiness',
        summary: 'Reference data for business forms: currencies, time zones, countries, units and defaults',
        description:
          'Public (a sign-up form needs it before anyone is signed in). Lists come from the ICU data of the runtime: ' +
          'every ISO 4217 currency in use with its narrow symbol and minor-unit digits, every IANA time zone with its ' +
          'current UTC offset, and every ISO 3166-1 country (groupings such as EU and UN excluded).',
        tags: TAGS,
        response: SingleResult('core', BusinessDefaultSettings),
        errors: [],
      },
    ),
    async () => single('core', businessDefaultSettings()),
  )

  app.post(
    '/api/business',
    operation(['Settings', 'Modify'], {
      operationId: 'CreateBusiness',
      summary: 'Add a business to the caller’s organisation',
      description: `Currency and time zone default to those of the current business. ${HIERARCHY} The new business appears in GET /api/me at once and can be used as X-Business-Id.`,
      tags: TAGS,
      body: CreateBusinessRequest,
      response: ONE,
      errors: [400],
    }),
    async (request) => single('core', await createBusiness(database, businessAuthOf(request), request.body)),
  )

  app.put(
    '/api/business/:businessId',
    operation(['Settings', 'Modify'], {
      operationId: 'UpdateBusiness',
      summary: 'Replace the editable fields of a business of the organisation',
      description: `PUT replaces: registeredName and displayName are required. Currency and timezone are settings with defaults: when absent they keep their current values, so a body with only the fields known from registration (registeredName, displayName, email, phoneNumber, website, registrationNumber, address) succeeds. Any other optional field left out is cleared (text and address to null, flags to false, no parent). ${HIERARCHY} A parent outside the organisation, the business itself or one of its descendants is a 400 naming parentBusinessId.`,
      tags: TAGS,
      params: BusinessParams,
      body: UpdateBusinessCommand,
      response: ONE,
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await updateBusiness(database, authOf(request), request.params.businessId, request.body),
      ),
  )

  app.get(
    '/api/business/:businessId/children',
    operation(['Settings', 'View'], {
      operationId: 'GetBusinessChildren',
      summary: 'The direct child businesses of a business',
      description:
        '$filter and $orderby over registeredName, displayName, currency, dateCreated (default: oldest first); $search matches registered or display name.',
      tags: TAGS,
      params: BusinessParams,
      querystring: ListQuery,
      response: PagedResult('core', BusinessResponse),
      errors: [400, 404],
    }),
    async (request) => listChildren(database, authOf(request), request.params.businessId, request.query),
  )
}
