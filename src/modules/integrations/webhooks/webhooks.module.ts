import { defineModule } from '../../../platform/module.js'
import * as createWebhookTables from './migrations/20261128100000-create-webhook-tables.js'
import * as createWebhookSchemas from './migrations/20261128100100-create-webhook-schemas.js'
import { WebhookWorker } from './webhook-worker.js'
import { webhookEvents } from './webhooks.events.js'
import { writeWebhookOutbox } from './webhooks.handler.js'
import { registerWebhookRoutes } from './webhooks.routes.js'

/** Webhooks (Integrations): endpoints, the outbox written from domain events, delivery logs, replay. */
export const webhooksModule = defineModule({
  name: 'integrations/webhooks',
  core: {
    tags: [
      {
        name: 'Webhooks',
        description:
          'Webhook endpoints, signed deliveries (Standard Webhooks) of business events, delivery logs and replay (Integrations)',
      },
    ],
    routes: registerWebhookRoutes,
  },
  migrations: {
    tenant: [{ name: '20261128100000-create-webhook-tables', sql: createWebhookTables.sql }],
    global: [{ name: '20261128100100-create-webhook-schemas', sql: createWebhookSchemas.sql }],
  },
  eventHandlers: { webhooks: writeWebhookOutbox },
  events: webhookEvents,
  unauditedTables: ['webhook_events', 'webhook_deliveries', 'webhook_attempts'],
  workers: [{ name: 'webhook deliveries', create: (deps, logger) => new WebhookWorker(deps, {}, logger) }],
})
