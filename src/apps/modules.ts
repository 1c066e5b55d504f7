import { BASELINE_MIGRATIONS } from '../db/migrations/baseline.js'
import { auditLogModule } from '../modules/audit/audit-log/audit-log.module.js'
import { customerAnalyticsModule } from '../modules/customers/analytics/customer-analytics.module.js'
import { customerAttachmentsModule } from '../modules/customers/attachments/customer-attachments.module.js'
import { customerConfigurationsModule } from '../modules/customers/customer-configurations/customer-configurations.module.js'
import { customerGroupsModule } from '../modules/customers/customer-groups/customer-groups.module.js'
import { customersModule } from '../modules/customers/customers/customers.module.js'
import { carriersModule } from '../modules/delivery/carriers/carriers.module.js'
import { documentsModule } from '../modules/delivery/documents/documents.module.js'
import { plansModule } from '../modules/delivery/plans/plans.module.js'
import { proofOfDeliveryModule } from '../modules/delivery/proof-of-delivery/proof-of-delivery.module.js'
import { shipmentLinesModule } from '../modules/delivery/shipment-lines/shipment-lines.module.js'
import { shipmentsModule } from '../modules/delivery/shipments/shipments.module.js'
import { trackingModule } from '../modules/delivery/tracking/tracking.module.js'
import { vehiclesModule } from '../modules/delivery/vehicles/vehicles.module.js'
import { zonesModule } from '../modules/delivery/zones/zones.module.js'
import { addressModule } from '../modules/geo/address/address.module.js'
import { apiKeysModule } from '../modules/identity/api-keys/api-keys.module.js'
import { authModule } from '../modules/identity/auth/auth.module.js'
import { emailTokensModule } from '../modules/identity/email-tokens/email-tokens.module.js'
import { invitationsModule } from '../modules/identity/invitations/invitations.module.js'
import { oneTimeTokensModule } from '../modules/identity/one-time-tokens/one-time-tokens.module.js'
import { passwordsModule } from '../modules/identity/passwords/passwords.module.js'
import { registrationModule } from '../modules/identity/registration/registration.module.js'
import { dashboardModule } from '../modules/insights/dashboard/dashboard.module.js'
import { sqlConsoleModule } from '../modules/insights/sql-console/sql-console.module.js'
import { webhooksModule } from '../modules/integrations/webhooks/webhooks.module.js'
import { transferOrdersModule } from '../modules/inventory/transfer-orders/transfer-orders.module.js'
import { bomsModule } from '../modules/manufacturing/boms/boms.module.js'
import { dimensionsModule } from '../modules/manufacturing/dimensions/dimensions.module.js'
import { productsModule } from '../modules/manufacturing/products/products.module.js'
import { stockModule } from '../modules/manufacturing/stock/stock.module.js'
import { workOrdersModule } from '../modules/manufacturing/work-orders/work-orders.module.js'
import { notificationsModule } from '../modules/notifications/notifications.module.js'
import { businessModule } from '../modules/organisation/business/business.module.js'
import { filesModule } from '../modules/organisation/files/files.module.js'
import { meModule } from '../modules/organisation/me/me.module.js'
import { settingsModule } from '../modules/organisation/settings/settings.module.js'
import { teamModule } from '../modules/organisation/team/team.module.js'
import { purchaseOrderDocumentsModule } from '../modules/purchasing/purchase-order-documents/purchase-order-documents.module.js'
import { purchaseOrdersModule } from '../modules/purchasing/purchase-orders/purchase-orders.module.js'
import { suppliersModule } from '../modules/purchasing/suppliers/suppliers.module.js'
import { ordersModule } from '../modules/sales/orders/orders.module.js'
import { reservationsModule } from '../modules/sales/reservations/reservations.module.js'
import { returnsModule } from '../modules/sales/returns/returns.module.js'
import { type CartageModule, eventWiringOf, migrationsOf } from '../platform/module.js'

/**
 * Every module of Cartage, one line each. A module declares its routes (for the Core API, the
 * Global API or both), tags, schema names, migrations and event handlers in its own folder
 * (`<module>.module.ts`); both apps, the migrator and the services are built from this list.
 * The order is the order of the tags in the API reference.
 */
export const MODULES: readonly CartageModule[] = [
  meModule,
  teamModule,
  invitationsModule,
  ordersModule,
  reservationsModule,
  returnsModule,
  businessModule,
  settingsModule,
  customerConfigurationsModule,
  filesModule,
  customerGroupsModule,
  customersModule,
  customerAttachmentsModule,
  customerAnalyticsModule,
  productsModule,
  stockModule,
  bomsModule,
  workOrdersModule,
  dimensionsModule,
  plansModule,
  shipmentsModule,
  shipmentLinesModule,
  proofOfDeliveryModule,
  trackingModule,
  documentsModule,
  zonesModule,
  vehiclesModule,
  carriersModule,
  addressModule,
  notificationsModule,
  dashboardModule,
  sqlConsoleModule,
  suppliersModule,
  purchaseOrdersModule,
  purchaseOrderDocumentsModule,
  authModule,
  registrationModule,
  apiKeysModule,
  oneTimeTokensModule,
  emailTokensModule,
  passwordsModule,
  transferOrdersModule,
  webhooksModule,
  auditLogModule,
]

/** The migrations that bring a database up to date: the baseline, then each module's. */
export const MIGRATIONS = migrationsOf(BASELINE_MIGRATIONS, MODULES)

/**
 * Every module's domain event handlers and the events the modules declare, registered with the
 * services whichever API a process serves.
 */
export const EVENT_HANDLERS = eventWiringOf(MODULES)

/** Starts the planning engine's thread ahead of the first plan (a serving process, once listening). */
export { warmPlanningThread } from '../modules/delivery/planning-engine/index.js'
/** Starts a zone thread ahead of the first large zone save (a serving process, once listening). */
export { warmZoneThread } from '../modules/delivery/zones/index.js'
