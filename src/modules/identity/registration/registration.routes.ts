import { Type } from '@sinclair/typebox'
import { SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { limitByIp, limitInstance } from '../../../security/rate-limiter.js'
import {
  RegisterOrganizationBusinessResponse,
  RegisterOrganizationRequest,
  SoftCheckQuery,
} from './registration.schemas.js'
import { isEmailRegistered, registerOrganization } from './registration.service.js'

const TAGS = ['Organizations']

export function registerRegistrationRoutes(app: HttpApp, deps: AppDeps) {
  const { database, services, config } = deps
  app.get(
    '/api/organizations/soft-check',
    {
      ...operation(
        { public: true },
        {
          api: 'global',
          operationId: 'SoftCheck',
          summary: 'Tell whether a user with this email address exists',
          tags: TAGS,
          querystring: SoftCheckQuery,
          response: SingleResult('global', Type.Boolean()),
          errors: [400, 429],
        },
      ),
      onRequest: limitByIp(services.rateLimiter, 'soft-check', config.rateLimitPerIp),
    },
    async (request) => single('global', await isEmailRegistered(database.db, request.query.emailAddress)),
  )

  app.post(
    '/api/organizations',
    {
      ...operation(
        { public: true },
        {
          api: 'global',
          operationId: 'RegisterOrganization',
          summary: 'Register an organisation with its first business and owner',
          description:
            'Creates, in one transaction, the organisation, its first business, the owner user and membership, and the organisation schema. ' +
            'Password: at least 8 characters, not the email; confirmPassword must match; acceptedTerms must be true. An email already registered is a 409.',
          tags: TAGS,
          body: RegisterOrganizationRequest,
          response: SingleResult('global', RegisterOrganizationBusinessResponse),
          errors: [400, 409, 413, 415, 429],
        },
      ),
      onRequest: [
        limitByIp(services.rateLimiter, 'registration', config.rateLimitPerIp),
        limitInstance('registration', config.registrationsPerHour, (message) => app.log.warn(message)),
      ],
    },
    async (request) =>
      single('global', await registerOrganization(database, request.body, { deps, log: request.log })),
  )
}
