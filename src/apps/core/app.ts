import type { FastifyBaseLogger } from 'fastify'
import { createHttpApp, type HttpApp } from '../../http/kernel.js'
import { registerBusinessRoutes } from '../../modules/business/business.routes.js'
import { registerCustomerAnalyticsRoutes } from '../../modules/customer-analytics/customer-analytics.routes.js'
import { registerCustomerAttachmentRoutes } from '../../modules/customer-attachments/customer-attachments.routes.js'
import { registerCustomerGroupRoutes } from '../../modules/customer-groups/customer-groups.routes.js'
import { registerCustomerRoutes } from '../../modules/customers/customers.routes.js'
import { registerFileRoutes } from '../../modules/files/files.routes.js'
import { registerInvitationRoutes } from '../../modules/invitations/invitations.routes.js'
import { registerMeRoutes } from '../../modules/me/me.routes.js'
import { registerOrderRoutes } from '../../modules/orders/orders.routes.js'
import { registerSettingsRoutes } from '../../modules/settings/settings.routes.js'
import { registerTeamRoutes } from '../../modules/team/team.routes.js'
import type { AppDeps } from '../deps.js'
import { CORE_SECURITY_SCHEMES } from './security.js'

/** The Core API (business data): modules are registered explicitly, so the list below is the API. */
export async function buildCoreApp(deps: AppDeps, logger: FastifyBaseLogger | false): Promise<HttpApp> {
  const app = await createHttpApp({
    flavor: 'core',
    title: 'Cartage Core API',
    description:
      'Business data of the Cartage platform. Success bodies are SingleResult/PagedResult envelopes whose statusCode is the status name (e.g. "OK"); ' +
      'errors are { message, code, reasons[] } with one reason per invalid field. Paths match regardless of letter case.',
    database: deps.database,
    authenticator: deps.services.authenticator,
    logger,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    securitySchemes: CORE_SECURITY_SCHEMES,
    tags: [
      { name: 'Me', description: 'The caller and their rights' },
      { name: 'Team', description: 'Members of the organisation and custom roles (TeamAndRoles)' },
      { name: 'Orders', description: 'Customer orders with lines, totals and status moves (Orders)' },
      { name: 'Business', description: 'Businesses of the organisation and their hierarchy (Settings)' },
      { name: 'Settings', description: 'Business settings and per-customer settings (Settings)' },
      { name: 'Files', description: 'Uploaded files: upload and download (Customers)' },
      { name: 'CustomerGroups', description: 'Groups that customers belong to (Customers)' },
      {
        name: 'Customers',
        description: 'Customers with contacts, attachments, activity traces and metadata (Customers)',
      },
      // (module tags: one line each)
    ],
  })
  registerMeRoutes(app, deps)
  registerTeamRoutes(app, deps)
  registerInvitationRoutes(app, deps)
  registerOrderRoutes(app, deps)
  registerCustomerAnalyticsRoutes(app, deps)
  registerBusinessRoutes(app, deps)
  registerSettingsRoutes(app, deps)
  registerFileRoutes(app, deps)
  registerCustomerGroupRoutes(app, deps)
  registerCustomerRoutes(app, deps)
  registerCustomerAttachmentRoutes(app, deps)
  // (module registrations: one line each)
  return app
}
