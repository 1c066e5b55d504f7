import type { FastifyBaseLogger } from 'fastify'
import { registerConsole } from '../../console/console.js'
import { INPUT_RULES_DESCRIPTION } from '../../http/input-rules.js'
import { createHttpApp, type HttpApp } from '../../http/kernel.js'
import { registerCustomerAnalyticsRoutes } from '../../modules/customers/analytics/customer-analytics.routes.js'
import { registerCustomerAttachmentRoutes } from '../../modules/customers/attachments/customer-attachments.routes.js'
import { registerCustomerGroupRoutes } from '../../modules/customers/customer-groups/customer-groups.routes.js'
import { registerCustomerRoutes } from '../../modules/customers/customers/customers.routes.js'
import { registerCarrierRoutes } from '../../modules/delivery/carriers/carriers.routes.js'
import { registerPlanRoutes } from '../../modules/delivery/plans/plans.routes.js'
import { registerShipmentRoutes } from '../../modules/delivery/shipments/shipments.routes.js'
import { registerVehicleRoutes } from '../../modules/delivery/vehicles/vehicles.routes.js'
import { registerZoneRoutes } from '../../modules/delivery/zones/zones.routes.js'
import { registerAddressRoutes } from '../../modules/geo/address/address.routes.js'
import { registerInvitationRoutes } from '../../modules/identity/invitations/invitations.routes.js'
import { registerDashboardRoutes } from '../../modules/insights/dashboard/dashboard.routes.js'
import { registerSqlConsoleRoutes } from '../../modules/insights/sql-console/sql-console.routes.js'
import { registerBomLineRoutes } from '../../modules/manufacturing/boms/bom-lines.routes.js'
import { registerBomRoutes } from '../../modules/manufacturing/boms/boms.routes.js'
import { registerDimensionRoutes } from '../../modules/manufacturing/dimensions/dimensions.routes.js'
import { registerProductRoutes } from '../../modules/manufacturing/products/products.routes.js'
import { registerStockRoutes } from '../../modules/manufacturing/stock/stock.routes.js'
import { registerWorkOrderRoutes } from '../../modules/manufacturing/work-orders/work-orders.routes.js'
import { registerNotificationRoutes } from '../../modules/notifications/notifications.routes.js'
import { registerBusinessRoutes } from '../../modules/organisation/business/business.routes.js'
import { registerFileRoutes } from '../../modules/organisation/files/files.routes.js'
import { registerMeRoutes } from '../../modules/organisation/me/me.routes.js'
import { registerSettingsRoutes } from '../../modules/organisation/settings/settings.routes.js'
import { registerTeamRoutes } from '../../modules/organisation/team/team.routes.js'
import { registerOrderRoutes } from '../../modules/sales/orders/orders.routes.js'
import type { AppDeps } from '../deps.js'
import { CORE_SECURITY_SCHEMES } from './security.js'

/** The Core API (business data): modules are registered explicitly, so the list below is the API. */
export async function buildCoreApp(deps: AppDeps, logger: FastifyBaseLogger | false): Promise<HttpApp> {
  const app = await createHttpApp({
    flavor: 'core',
    title: 'Cartage Core API',
    description:
      'Business data of the Cartage platform. Success bodies are SingleResult/PagedResult envelopes whose statusCode is the status name (e.g. "OK"); ' +
      'errors are { message, code, reasons[] } with one reason per invalid field. Paths match regardless of letter case.' +
      ` ${INPUT_RULES_DESCRIPTION}`,
    database: deps.database,
    authenticator: deps.services.authenticator,
    logger,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    web: deps.config,
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
      { name: 'Products', description: 'Products and their stock ledger (Products)' },
      {
        name: 'Boms',
        description: 'Bills of materials: revisions, activation, multi-level cost as of a date (Products)',
      },
      {
        name: 'WorkOrders',
        description: 'Work orders: make a product from its BOM, standard vs actual cost (WorkOrders)',
      },
      {
        name: 'Dimensions',
        description: 'Package sizes: presets of the business and carrier templates (Products)',
      },
      {
        name: 'DeliveryPlans',
        description: 'Delivery plans (dispatches): codes, stops, autobatch, timeline (Shipments)',
      },
      { name: 'Shipments', description: 'Shipments and their status moves (Shipments)' },
      {
        name: 'DeliveryZones',
        description: 'Delivery zones as GeoJSON polygons, with point lookup (Shipments)',
      },
      { name: 'Vehicles', description: 'The fleet: vehicles with weight and volume capacity (Vehicles)' },
      { name: 'Address', description: 'Address from free text: offline parser and gazetteer, or a geocoder' },
      { name: 'Notifications', description: "The caller's in-app notifications, and a live stream of them" },
      { name: 'Insights', description: 'Dashboard figures: summary, volumes, top customers (Insights)' },
      { name: 'SqlConsole', description: 'Ad-hoc read-only SQL over the business tables (Insights)' },
      // (module tags: one line each)
    ],
  })
  registerMeRoutes(app, deps)
  registerSqlConsoleRoutes(app, deps)
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
  registerProductRoutes(app, deps)
  registerStockRoutes(app, deps)
  registerBomRoutes(app, deps)
  registerBomLineRoutes(app, deps)
  registerWorkOrderRoutes(app, deps)
  registerDimensionRoutes(app, deps)
  registerVehicleRoutes(app, deps)
  registerShipmentRoutes(app, deps)
  registerZoneRoutes(app, deps)
  registerPlanRoutes(app, deps)
  registerCarrierRoutes(app, deps)
  registerNotificationRoutes(app, deps)
  registerAddressRoutes(app, deps)
  registerDashboardRoutes(app, deps)
  // (module registrations: one line each)
  await registerConsole(app, deps.config)
  return app
}
