import { randomBytes } from 'node:crypto'
import { globalAndOrganisation } from '../../../db/clusters.js'
import { newId } from '../../../db/ids.js'
import { invalidField, validationFailed } from '../../../errors.js'
import { paged } from '../../../http/envelopes.js'
import type { ListQuery } from '../../../http/list-params.js'
import { type ListSpec, runList } from '../../../http/list-query.js'
import type { AppDeps } from '../../../platform/deps.js'
import type { BusinessAuth } from '../../../security/auth-context.js'
import { insertAttempt } from './outbox.repository.js'
import { sealSecret, secretsKey, signingSecrets } from './webhook-secrets.js'
import { sendWebhook } from './webhook-sender.js'
import { urlRefusal } from './webhook-target.js'
import { endpointNotFound } from './webhooks.errors.js'
import { TEST_EVENT_TYPE, webhookEventTypes } from './webhooks.handler.js'
import { toAttempt } from './webhooks.mapper.js'
import * as repository from './webhooks.repository.js'
import type {
  RotateSecretRequest,
  WebhookAttemptResponse,
  WebhookEndpointRequest,
  WebhookEndpointResponse,
  WebhookEndpointSecretResponse,
} from './webhooks.schemas.js'

const LIST: ListSpec = {
  fields: {
    url: { column: 'url', type: 'string' },
    description: { column: 'description', type: 'string' },
    enabled: { column: 'enabled', type: 'boolean' },
    consecutiveFailures: { column: 'consecutive_failures', type: 'number' },
    dateCreated: { column: 'date_created', type: 'datetime' },
    dateModified: { column: 'date_modified', type: 'datetime' },
  },
  search: ['url', 'description'],
  defaultOrder: [{ column: 'date_created', direction: 'desc' }],
  tiebreak: 'id',
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

export function toEndpoint(row: repository.EndpointRow): WebhookEndpointResponse {
  return {
    id: row.id,
    businessId: row.business_id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    consecutiveFailures: row.consecutive_failures,
    previousSecretExpiresAt:
      row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
        ? row.previous_secret_expires_at.toISOString()
        : null,
    dateCreated: row.date_created.toISOString(),
    dateModified: row.date_modified.toISOString(),
  }
}

function values({ config, services }: AppDeps, request: WebhookEndpointRequest): repository.EndpointValues {
  const url = request.url.trim()
  const refusal = urlRefusal(url, config.webhooksAllowPrivateTargets)
  if (refusal) throw invalidField('url', refusal)
  const known = new Set(listEventTypes({ services }).map(({ type }) => type))
  const unknown = request.eventTypes.filter((type) => !known.has(type))
  if (unknown.length > 0)
    throw validationFailed([
      {
        field: 'eventTypes',
        message: `unknown event type(s) ${unknown.join(', ')}; see GET /api/v1/webhooks/event-types`,
      },
    ])
  return {
    url,
    description: request.description?.trim() || null,
    event_types: [...new Set(request.eventTypes)],
    enabled: request.enabled ?? true,
  }
}

/** The webhook event types, as the modules declare them. */
export const listEventTypes = ({ services }: Pick<AppDeps, 'services'>) =>
  webhookEventTypes(services.events.declared)

export async function listEndpoints({ database }: AppDeps, auth: BusinessAuth, query: ListQuery) {
  const { rows, total, page } = await runList(
    repository.scopedEndpoints(database.db, auth.schemaName, auth.businessId),
    query,
    LIST,
  )
  return paged('core', rows.map(toEndpoint), total, page)
}

export async function getEndpoint({ database }: AppDeps, auth: BusinessAuth, id: string) {
  const row = await repository.findEndpoint(database.db, auth.schemaName, auth.businessId, id)
  if (!row) throw endpointNotFound()
  return toEndpoint(row)
}

export async function createEndpoint(
  deps: AppDeps,
  auth: BusinessAuth,
  request: WebhookEndpointRequest,
): Promise<WebhookEndpointSecretResponse> {
  const secret = newSecret()
  const id = newId()
  const sealed = sealSecret(secretsKey(deps.config), auth.businessId, id, secret)
  const row = await globalAndOrganisation(deps.database, auth.schemaName, (trx, organisation) =>
    repository.insertEndpoint(trx, organisation, auth.schemaName, {
      ...values(deps, request),
      id,
      business_id: auth.businessId,
      secret: sealed,
    }),
  )
  return { ...toEndpoint(row), secret }
}

export async function updateEndpoint(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: WebhookEndpointRequest,
) {
  const row = await repository.updateEndpoint(
    deps.database.db,
    auth.schemaName,
    auth.businessId,
    id,
    values(deps, request),
  )
  if (!row) throw endpointNotFound()
  return toEndpoint(row)
}

/** Deletes the endpoint with its pending deliveries and its log. */
export async function deleteEndpoint({ database }: AppDeps, auth: BusinessAuth, id: string) {
  if (!(await repository.deleteEndpoint(database.db, auth.schemaName, auth.businessId, id)))
    throw endpointNotFound()
  return true
}

export async function rotateSecret(
  { database, config }: AppDeps,
  auth: BusinessAuth,
  id: string,
  request: RotateSecretRequest,
): Promise<WebhookEndpointSecretResponse> {
  const secret = newSecret()
  const grace = request.graceSeconds ?? 86_400
  const sealed = sealSecret(secretsKey(config), auth.businessId, id, secret)
  const row = await repository.rotateSecret(database.db, auth.schemaName, auth.businessId, id, sealed, grace)
  if (!row) throw endpointNotFound()
  return { ...toEndpoint(row), secret }
}

/**
 * Sends a `webhook.test` event to the endpoint now, signed like any delivery, and answers the
 * attempt (also written to the endpoint's log). Nothing goes to the outbox; a refused address
 * or a failing receiver is an answer, not an error.
 */
export async function testEndpoint(
  deps: AppDeps,
  auth: BusinessAuth,
  id: string,
): Promise<WebhookAttemptResponse> {
  const { database, config } = deps
  const endpoint = await repository.findEndpointWithSecrets(database.db, auth.schemaName, auth.businessId, id)
  if (!endpoint) throw endpointNotFound()
  const messageId = newId()
  const body = JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { businessId: auth.businessId, endpointId: id },
  })
  const secrets = signingSecrets(config, {
    businessId: auth.businessId,
    endpointId: id,
    secret: endpoint.secret,
    previousSecret: endpoint.previous_secret,
  })
  const result = await sendWebhook(
    endpoint.url,
    secrets,
    { id: messageId, body },
    {
      timeoutMs: config.webhooksTimeoutMs,
      allowPrivateTargets: config.webhooksAllowPrivateTargets,
    },
  )
  const row = await insertAttempt(database.db, auth.schemaName, {
    business_id: auth.businessId,
    endpoint_id: id,
    delivery_id: null,
    event_id: messageId,
    event_type: TEST_EVENT_TYPE,
    attempt: 1,
    outcome: result.outcome,
    response_status: result.responseStatus,
    latency_ms: result.latencyMs,
    response_body: result.responseBody,
    error: result.error,
  })
  return toAttempt(row)
}
