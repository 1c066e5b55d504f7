import { defineModule } from '../../platform/module.js'
import { notifyMembers } from './notifications.handler.js'
import { registerNotificationRoutes } from './notifications.routes.js'

/** In-app notifications: written from domain events in the same transaction, read and streamed. */
export const notificationsModule = defineModule({
  name: 'notifications',
  core: {
    tags: [
      { name: 'Notifications', description: "The caller's in-app notifications, and a live stream of them" },
    ],
    routes: registerNotificationRoutes,
  },
  eventHandlers: { notifications: notifyMembers },
  unauditedTables: ['notifications'],
})
