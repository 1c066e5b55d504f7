import { defineModule } from '../../../platform/module.js'
import * as trackingLinks from './migrations/20261213100000-tracking-links.js'
import { registerTrackingRoutes } from './tracking.routes.js'
import { linkDispatchedShipments, sendDueTrackingMails } from './tracking.service.js'

/** How often `cartage serve` sends the tracking mails that dispatches made due. */
export const TRACKING_MAIL_INTERVAL_MS = 5_000

/** The public tracking page per shipment, and the mail that brings its link to the customer. */
export const trackingModule = defineModule({
  name: 'delivery/tracking',
  core: {
    tags: [
      {
        name: 'Tracking',
        description: 'The public tracking page of a shipment (no sign-in) and its link (Shipments)',
      },
    ],
    routes: registerTrackingRoutes,
  },
  migrations: { global: [{ name: '20261213100000-tracking-links', sql: trackingLinks.sql }] },
  eventHandlers: { 'tracking links': linkDispatchedShipments },
  periodicTasks: [
    {
      name: 'tracking mails',
      intervalMs: TRACKING_MAIL_INTERVAL_MS,
      round: (deps, logger) => sendDueTrackingMails(deps, logger),
    },
  ],
})
