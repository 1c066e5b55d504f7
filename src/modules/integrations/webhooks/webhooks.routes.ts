import { Type } from '@sinclair/typebox'
import { businessAuthOf } from '../../../http/auth-hook.js'
import { PagedResult, SingleResult, single } from '../../../http/envelopes.js'
import type { HttpApp } from '../../../http/kernel.js'
import { ListQuery } from '../../../http/list-params.js'
import { operation } from '../../../http/operation.js'
import type { AppDeps } from '../../../platform/deps.js'
import { listAttempts, listEvents, replayEvent, replayRange } from './deliveries.service.js'
import {
  ReplayRangeRequest,
  ReplayResponse,
  RotateSecretRequest,
  WebhookAttemptResponse,
  WebhookEndpointParams,
  WebhookEndpointRequest,
  WebhookEndpointResponse,
  WebhookEndpointSecretResponse,
  WebhookEventParams,
  WebhookEventResponse,
  WebhookEventTypeResponse,
} from './webhooks.schemas.js'
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  listEventTypes,
  rotateSecret,
  testEndpoint,
  updateEndpoint,
} from './webhooks.service.js'

const TAGS = ['Webhooks']
const VIEW = ['Integrations', 'View'] as const
const MODIFY = ['Integrations', 'Modify'] as const
const ENDPOINTS = '/api/v1/webhooks/endpoints'
const ONE = `${ENDPOINTS}/:endpointId`

/** Webhooks (Integrations): endpoints, their signing secrets, the event outbox, logs and replay. */
export function registerWebhookRoutes(app: HttpApp, deps: AppDeps) {
  app.get(
    '/api/v1/webhooks/event-types',
    operation(VIEW, {
      operationId: 'GetWebhookEventTypes',
      summary: 'The event types an endpoint can subscribe to',
      tags: TAGS,
      response: SingleResult('core', Type.Array(WebhookEventTypeResponse)),
      errors: [],
    }),
    async () => single('core', listEventTypes(deps)),
  )
  app.get(
    ENDPOINTS,
    operation(VIEW, {
      operationId: 'GetWebhookEndpoints',
      summary: "The business's webhook endpoints",
      description:
        '$filter/$orderby over url, description, enabled, consecutiveFailures, dateCreated, dateModified; $search matches url and description. Secrets are never shown.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', WebhookEndpointResponse),
      errors: [400],
    }),
    async (request) => listEndpoints(deps, businessAuthOf(request), request.query),
  )
  app.post(
    ENDPOINTS,
    operation(MODIFY, {
      operationId: 'CreateWebhookEndpoint',
      summary: 'Add a webhook endpoint',
      description:
        'Answers the signing secret, once. Deliveries follow the Standard Webhooks specification (webhook-id, webhook-timestamp, webhook-signature). A URL that is not https, or names an address webhooks may not reach (private, loopback, link-local, reserved, or an IPv6 address carrying one), is a 400 on url.',
      tags: TAGS,
      body: WebhookEndpointRequest,
      response: SingleResult('core', WebhookEndpointSecretResponse),
      errors: [400],
    }),
    async (request) => single('core', await createEndpoint(deps, businessAuthOf(request), request.body)),
  )
  app.get(
    ONE,
    operation(VIEW, {
      operationId: 'GetWebhookEndpoint',
      summary: 'One webhook endpoint',
      tags: TAGS,
      params: WebhookEndpointParams,
      response: SingleResult('core', WebhookEndpointResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await getEndpoint(deps, businessAuthOf(request), request.params.endpointId)),
  )
  app.put(
    ONE,
    operation(MODIFY, {
      operationId: 'UpdateWebhookEndpoint',
      summary: 'Replace a webhook endpoint',
      description:
        'enabled: true re-enables an endpoint that delivery disabled and clears its failure count.',
      tags: TAGS,
      params: WebhookEndpointParams,
      body: WebhookEndpointRequest,
      response: SingleResult('core', WebhookEndpointResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await updateEndpoint(deps, businessAuthOf(request), request.params.endpointId, request.body),
      ),
  )
  app.delete(
    ONE,
    operation(['Integrations', 'Delete'], {
      operationId: 'DeleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: 'Its pending deliveries and its log go with it; the events stay.',
      tags: TAGS,
      params: WebhookEndpointParams,
      response: SingleResult('core', Type.Boolean()),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await deleteEndpoint(deps, businessAuthOf(request), request.params.endpointId)),
  )
  app.post(
    `${ONE}/rotate-secret`,
    operation(MODIFY, {
      operationId: 'RotateWebhookSecret',
      summary: "Replace an endpoint's signing secret",
      description:
        'Answers the new secret, once. The previous one keeps signing for graceSeconds (default a day): meanwhile webhook-signature carries both signatures.',
      tags: TAGS,
      params: WebhookEndpointParams,
      querystring: RotateSecretRequest,
      response: SingleResult('core', WebhookEndpointSecretResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await rotateSecret(deps, businessAuthOf(request), request.params.endpointId, request.query),
      ),
  )
  app.post(
    `${ONE}/test`,
    operation(MODIFY, {
      operationId: 'TestWebhookEndpoint',
      summary: 'Send a test event to an endpoint now',
      description:
        'Sends a signed webhook.test event and answers the attempt: Succeeded, Failed (with the response status or error) or Refused (an address webhooks may not reach). The attempt is also in the delivery log.',
      tags: TAGS,
      params: WebhookEndpointParams,
      response: SingleResult('core', WebhookAttemptResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await testEndpoint(deps, businessAuthOf(request), request.params.endpointId)),
  )
  app.get(
    `${ONE}/deliveries`,
    operation(VIEW, {
      operationId: 'GetWebhookDeliveries',
      summary: "An endpoint's delivery log",
      description:
        'Every attempt, newest first: outcome, response status, latency and the start of the response body. $filter/$orderby over outcome, eventType, responseStatus, latencyMs, attempt, dateCreated.',
      tags: TAGS,
      params: WebhookEndpointParams,
      querystring: ListQuery,
      response: PagedResult('core', WebhookAttemptResponse),
      errors: [400, 404],
    }),
    async (request) => listAttempts(deps, businessAuthOf(request), request.params.endpointId, request.query),
  )
  app.post(
    `${ONE}/replay`,
    operation(MODIFY, {
      operationId: 'ReplayWebhookRange',
      summary: 'Send an endpoint the events of a time range again',
      description:
        'Queues a new delivery to this endpoint of every event of its types written in [from, to), at most 10,000 per call, in event order.',
      tags: TAGS,
      params: WebhookEndpointParams,
      body: ReplayRangeRequest,
      response: SingleResult('core', ReplayResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single(
        'core',
        await replayRange(deps, businessAuthOf(request), request.params.endpointId, request.body),
      ),
  )
  app.get(
    '/api/v1/webhooks/events',
    operation(VIEW, {
      operationId: 'GetWebhookEvents',
      summary: 'The webhook events of the business (the outbox)',
      description:
        'Newest first, each with its deliveries. An event is written only when an enabled endpoint wanted its type. $filter/$orderby over type, dateCreated; $search matches type and resource.',
      tags: TAGS,
      querystring: ListQuery,
      response: PagedResult('core', WebhookEventResponse),
      errors: [400],
    }),
    async (request) => listEvents(deps, businessAuthOf(request), request.query),
  )
  app.post(
    '/api/v1/webhooks/events/:eventId/replay',
    operation(MODIFY, {
      operationId: 'ReplayWebhookEvent',
      summary: 'Send an event again',
      description:
        'Queues a new delivery of the event (same webhook-id) to every enabled endpoint subscribed to its type.',
      tags: TAGS,
      params: WebhookEventParams,
      response: SingleResult('core', ReplayResponse),
      errors: [400, 404],
    }),
    async (request) =>
      single('core', await replayEvent(deps, businessAuthOf(request), request.params.eventId)),
  )
}
